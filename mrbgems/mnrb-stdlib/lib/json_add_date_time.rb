# json/add/date_time: {"json_class": "DateTime", "y", "m", "d", "H", "M", "S", "of": "n/d", "sg"}
class DateTime
  def self.json_create(object)
    num, den = object["of"].split("/").map(&:to_i)
    civil(object["y"], object["m"], object["d"], object["H"], object["M"], object["S"], Rational(num, den || 1), object["sg"])
  end

  def as_json(*)
    { JSON.create_id => self.class.name, "y" => year, "m" => month, "d" => day,
      "H" => hour, "M" => min, "S" => sec, "of" => offset.to_s, "sg" => start }
  end

  def to_json(*args) = as_json.to_json(*args)
end
