# json/add/regexp: {"json_class": "Regexp", "o": options, "s": source}
class Regexp
  def self.json_create(object) = new(object["s"], object["o"])
  def as_json(*) = { JSON.create_id => self.class.name, "o" => options, "s" => source }
  def to_json(*args) = as_json.to_json(*args)
end
