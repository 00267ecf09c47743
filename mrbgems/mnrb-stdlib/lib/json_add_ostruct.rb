# json/add/ostruct: {"json_class": "OpenStruct", "t": table}
class OpenStruct
  def self.json_create(object) = new(object["t"] || object[:t])
  def as_json(*) = { JSON.create_id => self.class.name, "t" => to_h }
  def to_json(*args) = as_json.to_json(*args)
end
