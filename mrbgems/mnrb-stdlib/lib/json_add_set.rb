# json/add/set: {"json_class": "Set", "a": elements}
class Set
  def self.json_create(object) = new(object["a"])
  def as_json(*) = { JSON.create_id => self.class.name, "a" => to_a }
  def to_json(*args) = as_json.to_json(*args)
end
