# json/add/time: {"json_class": "Time", "s": seconds, "n": nanoseconds} (older JSON: "u", microseconds)
class Time
  def self.json_create(object)
    return at(object["s"], object["u"], :usec) if object.key?("u")
    at(object["s"], object["n"], :nsec)
  end

  def as_json(*) = { JSON.create_id => self.class.name, "s" => tv_sec, "n" => tv_nsec }
  def to_json(*args) = as_json.to_json(*args)
end
