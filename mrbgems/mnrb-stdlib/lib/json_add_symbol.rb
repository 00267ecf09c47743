# json/add/symbol: {"json_class": "Symbol", "s": name}
class Symbol
  def self.json_create(object) = object["s"].to_sym
  def as_json(*) = { JSON.create_id => self.class.name, "s" => to_s }
  def to_json(*args) = as_json.to_json(*args)
end
