# json/add/date: {"json_class": "Date", "y", "m", "d", "sg": start}
class Date
  def self.json_create(object) = civil(object["y"], object["m"], object["d"], object["sg"])
  def as_json(*) = { JSON.create_id => self.class.name, "y" => year, "m" => month, "d" => day, "sg" => start }
  def to_json(*args) = as_json.to_json(*args)
end
