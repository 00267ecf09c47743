# json/add/rational: {"json_class": "Rational", "n": numerator, "d": denominator}
class Rational
  def self.json_create(object) = Rational(object["n"], object["d"])
  def as_json(*) = { JSON.create_id => self.class.name, "n" => numerator, "d" => denominator }
  def to_json(*args) = as_json.to_json(*args)
end
