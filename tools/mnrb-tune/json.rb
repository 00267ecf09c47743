# JSON for mnrb-tune --json (mnrb has no json library): Hash, Array, String, Symbol, Integer,
# Float, true, false, nil.
module TuneJSON
  ESCAPES = { '"' => '\\"', "\\" => "\\\\", "\n" => "\\n", "\r" => "\\r", "\t" => "\\t" }

  def self.generate(v)
    case v
    when Hash then "{" + v.map { |k, x| "#{generate(k.to_s)}:#{generate(x)}" }.join(",") + "}"
    when Array then "[" + v.map { |x| generate(x) }.join(",") + "]"
    when String, Symbol
      '"' + v.to_s.each_char.map { |c| ESCAPES[c] || (c.ord < 0x20 ? format("\\u%04x", c.ord) : c) }.join + '"'
    when Float then v.finite? ? v.round(6).to_s : "null"
    when Integer then v.to_s
    when true then "true"
    when false then "false"
    when nil then "null"
    else generate(v.to_s)
    end
  end
end
