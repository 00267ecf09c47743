# json/add/struct: {"json_class": "Name", "v": values}; anonymous Structs cannot be named
class Struct
  def self.json_create(object) = new(*object["v"])

  def as_json(*)
    name = self.class.name.to_s
    raise JSON::JSONError, "Only named structs are supported!" if name.empty?
    { JSON.create_id => name, "v" => values }
  end

  def to_json(*args) = as_json.to_json(*args)
end
