# mnrb-tune's pictures: a terminal bar chart (throughput per level, one block per mode) and an SVG
# in the shape of seed 001's graphs: throughput and p99 latency against the level (log2 axis), one
# line per mode.
module TuneChart
  COLORS = { "threads" => "#1f77b4", "ractors" => "#d62728", "processes" => "#2ca02c" }
  WIDTH = 40

  def self.label_width(rows)
    [9, rows.map { |r| r[:mode].size }.max].max
  end

  def self.terminal(rows)
    best = rows.map { |r| r[:tput] }.max
    best = 1.0 if best <= 0
    lines = []
    rows.group_by { |r| r[:mode] }.each do |mode, rs|
      rs.sort_by { |r| r[:level] }.each_with_index do |r, i|
        bar = "#" * (r[:tput] / best * WIDTH).round
        lines << format("%-#{label_width(rows)}s %5d |%-#{WIDTH}s %s/s, p99 %s", i == 0 ? mode : "", r[:level], bar,
                        TuneFormat.num(r[:tput]), TuneFormat.ms(r[:p99]))
      end
    end
    lines.join("\n")
  end

  # another Ruby's (--compare, given more than once): [threads, processes] colours, one pair per Ruby
  OTHER_COLORS = [%w(#9edae5 #98df8a), %w(#c5b0d5 #dbdb8d), %w(#f7b6d2 #c49c94)]

  # mnrb's modes by name; another Ruby's by the mode it ends with, greyed, a pair per Ruby in the order seen
  def self.color_of(mode)
    return COLORS[mode] if COLORS.key?(mode)
    ruby = mode.sub(/ (threads|processes)\z/, "")
    @others ||= []
    @others << ruby unless @others.include?(ruby)
    pair = OTHER_COLORS[@others.index(ruby) % OTHER_COLORS.size]
    mode.end_with?("processes") ? pair[1] : pair[0]
  end

  def self.esc(s)
    s.to_s.gsub("&", "&amp;").gsub("<", "&lt;").gsub(">", "&gt;")
  end

  # one panel: x = log2(level), y = value (0..max), a polyline per mode
  def self.panel(rows, key, title, unit, x0, y0, w, h)
    levels = rows.map { |r| r[:level] }.uniq.sort
    lx = ->(l) { levels.size == 1 ? x0 + w / 2.0 : x0 + (Math.log2(l) - Math.log2(levels.first)) / (Math.log2(levels.last) - Math.log2(levels.first)) * w }
    max = rows.map { |r| r[key] }.max
    max = 1.0 if max.nil? || max <= 0
    ly = ->(v) { y0 + h - v / max * h }
    out = []
    out << %(<text x="#{x0 + w / 2}" y="#{y0 - 12}" text-anchor="middle" font-size="14">#{esc(title)}</text>)
    out << %(<line x1="#{x0}" y1="#{y0 + h}" x2="#{x0 + w}" y2="#{y0 + h}" stroke="#333"/>)
    out << %(<line x1="#{x0}" y1="#{y0}" x2="#{x0}" y2="#{y0 + h}" stroke="#333"/>)
    levels.each do |l|
      x = lx.(l).round(1)
      out << %(<line x1="#{x}" y1="#{y0 + h}" x2="#{x}" y2="#{y0 + h + 4}" stroke="#333"/>)
      out << %(<text x="#{x}" y="#{y0 + h + 18}" text-anchor="middle" font-size="11">#{l}</text>)
    end
    out << %(<text x="#{x0 + w / 2}" y="#{y0 + h + 36}" text-anchor="middle" font-size="12">concurrency level</text>)
    4.times do |i|
      v = max * (i + 1) / 4.0
      y = ly.(v).round(1)
      out << %(<line x1="#{x0}" y1="#{y}" x2="#{x0 + w}" y2="#{y}" stroke="#ddd"/>)
      out << %(<text x="#{x0 - 6}" y="#{y + 4}" text-anchor="end" font-size="11">#{esc(unit.(v))}</text>)
    end
    rows.group_by { |r| r[:mode] }.each do |mode, rs|
      pts = rs.sort_by { |r| r[:level] }.map { |r| "#{lx.(r[:level]).round(1)},#{ly.(r[key]).round(1)}" }
      color = color_of(mode)
      dash = COLORS.key?(mode) ? "" : %( stroke-dasharray="6 4")     # another Ruby's (--compare)
      out << %(<polyline fill="none" stroke="#{color}" stroke-width="2"#{dash} points="#{pts.join(' ')}"/>)
      pts.each { |pt| x, y = pt.split(","); out << %(<circle cx="#{x}" cy="#{y}" r="3" fill="#{color}"/>) }
    end
    out
  end

  def self.svg(rows, title, subtitle, pick)
    w = 900
    h = 420
    out = [%(<svg xmlns="http://www.w3.org/2000/svg" width="#{w}" height="#{h}" font-family="sans-serif">),
           %(<rect width="#{w}" height="#{h}" fill="white"/>),
           %(<text x="#{w / 2}" y="24" text-anchor="middle" font-size="16">#{esc(title)}</text>),
           %(<text x="#{w / 2}" y="42" text-anchor="middle" font-size="11" fill="#555">#{esc(subtitle)}</text>)]
    out.concat(panel(rows, :tput, "throughput (units/s)", ->(v) { TuneFormat.num(v) }, 80, 95, 320, 240))
    out.concat(panel(rows, :p99, "p99 latency per unit", ->(v) { TuneFormat.ms(v) }, 540, 95, 320, 240))
    rows.map { |r| r[:mode] }.uniq.each_with_index do |mode, i|
      x = 40 + i * 150
      out << %(<rect x="#{x}" y="#{h - 22}" width="14" height="4" fill="#{color_of(mode)}"/>)
      out << %(<text x="#{x + 20}" y="#{h - 16}" font-size="12">#{esc(mode)}</text>)
    end
    if pick
      out << %(<text x="#{w / 2}" y="58" text-anchor="middle" font-size="12">sweet spot: #{esc(pick[:mode])} x #{pick[:level]}</text>)
    end
    out << "</svg>"
    out.join("\n") + "\n"
  end
end

module TuneFormat
  def self.num(v)
    return format("%.0f", v) if v >= 100
    return format("%.1f", v) if v >= 10
    format("%.2f", v)
  end

  def self.ms(seconds)
    v = seconds * 1000.0
    return format("%.0f ms", v) if v >= 100
    return format("%.1f ms", v) if v >= 1
    format("%.3f ms", v)
  end
end
