# json/add/range: {"json_class": "Range", "a": [begin, end, exclude_end?]}
class Range
  def self.json_create(object) = new(*object["a"])
  def as_json(*) = { JSON.create_id => self.class.name, "a" => [self.begin, self.end, exclude_end?] }
  def to_json(*args) = as_json.to_json(*args)
end
