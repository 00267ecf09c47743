# json/add/bigdecimal: {"json_class": "BigDecimal", "b": _dump}
class BigDecimal
  def self.json_create(object) = BigDecimal._load(object["b"])
  def as_json(*) = { JSON.create_id => self.class.name, "b" => _dump }
  def to_json(*args) = as_json.to_json(*args)
end
