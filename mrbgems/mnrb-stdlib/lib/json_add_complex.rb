# json/add/complex: {"json_class": "Complex", "r": real, "i": imaginary}
class Complex
  def self.json_create(object) = Complex(object["r"], object["i"])
  def as_json(*) = { JSON.create_id => self.class.name, "r" => real, "i" => imaginary }
  def to_json(*args) = as_json.to_json(*args)
end
