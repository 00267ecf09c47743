# JSON.parse and JSON.generate on a 1.2 MB document of mixed records (strings with escapes and
# non-ASCII text, integers, Bignums, floats, nested arrays and objects): best of 5, in seconds.
#   bin/mnrb bench/json_parse.rb      ruby bench/json_parse.rb      (not part of the timed tests)
require "json"

def record(i)
  { "id" => i, "name" => "user #{i} \"quoted\" caf\u00e9", "score" => i * 1.25, "big" => 2**70 + i,
    "tags" => ["a", "b\n", "\u2603"], "flags" => { "on" => i.even?, "none" => nil, "deep" => [[i], { "k" => -i }] } }
end

doc = JSON.generate((0...6000).map { |i| record(i) })
clock = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
best = ->(&blk) { (1..5).map { t = clock.(); blk.(); clock.() - t }.min }
parsed = nil
tp = best.() { parsed = JSON.parse(doc) }
tg = best.() { JSON.generate(parsed) }
raise "round trip" unless JSON.parse(JSON.generate(parsed)) == parsed
printf("%s %s: %.2f MB, parse %.4f s, generate %.4f s\n", RUBY_ENGINE, RUBY_VERSION, doc.bytesize / 1e6, tp, tg)
