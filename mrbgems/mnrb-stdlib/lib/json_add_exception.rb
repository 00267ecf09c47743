# json/add/exception: {"json_class": "Name", "m": message, "b": backtrace}
class Exception
  def self.json_create(object)
    e = new(object["m"])
    e.set_backtrace(object["b"]) if object["b"]
    e
  end

  def as_json(*) = { JSON.create_id => self.class.name, "m" => message, "b" => backtrace }
  def to_json(*args) = as_json.to_json(*args)
end
