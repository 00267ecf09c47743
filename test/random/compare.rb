# Checks mnrb's Random against CRuby's on random (seed, method, argument) cases: writes them as one
# Ruby program, runs it under CRuby (RUBY, default /usr/bin/ruby) and under BIN, and compares the
# outputs line by line. Each case prints its result (Floats as their IEEE bits, Strings as hex) or
# its exception's class and message, then the generator's next 32-bit output, so a case that drew a
# different number of outputs than CRuby fails even when its own result agrees.
#
#   ruby test/random/compare.rb BIN [CASES] [SEED]      (run by test/random-compare.sh)
# The last line is "N passed, N failed".
MRUBY = ARGV[0] or abort 'usage: compare.rb BIN [CASES] [SEED]'
COUNT = (ARGV[1] || 10_000).to_i
require 'tmpdir'
CASES = File.join(Dir.mktmpdir('mnrb-random'), 'cases.rb')
SEED = (ARGV[2] || Random.new_seed % 1_000_000_000).to_i
puts "seed #{SEED} (replay: ruby test/random/compare.rb BIN #{COUNT} #{SEED})"
G = Random.new(SEED)

PRELUDE = <<~'RUBY'
  def repr(v)
    case v
    when Integer then "i#{v}"
    when Float then "f" + [v].pack("G").unpack("H*")[0]
    when String then "s" + v.unpack("H*")[0]
    when Array then "[" + v.map { |x| repr(x) }.join(",") + "]"
    when nil, true, false then v.inspect
    else "#{v.class}:#{v}"
    end
  end
  def c(id)
    out = begin
      repr(yield)
    rescue => e
      "E#{e.class}:#{e.message}"
    end
    puts "#{id} #{out}"
  end
RUBY

def pick(*choices) = choices[G.rand(choices.size)]

def seed
  case G.rand(8)
  when 0 then G.rand(1000)
  when 1 then G.rand(2**32)
  when 2 then -G.rand(2**40)
  when 3 then 2**32 + G.rand(4)               # the top word 1 is dropped
  when 4 then G.rand(2**64)
  when 5 then 2**G.rand(32..200) + pick(-1, 0, 1, 5)
  when 6 then G.rand(2**256) * pick(1, -1)
  else pick(0, 1, 2**31, 2**32 - 1, 2**32, 2**63, 2**64, 2**64 + 2**32, 2**96 + 7)
  end
end

def int_max
  case G.rand(7)
  when 0 then G.rand(1..10)
  when 1 then G.rand(1..2**31)
  when 2 then 2**G.rand(0..80) + pick(-1, 0, 1)
  when 3 then G.rand(2**32..2**64)
  when 4 then G.rand(2**64..2**300)
  when 5 then pick(1, 2, 3, 100, 2**32, 2**32 + 1, 2**64, 2**64 + 1, 1000000007)
  else G.rand(1..1000)
  end
end

# A Float as an exact expression: mruby 3.3's parser does not round every decimal literal
# correctly (off by one ulp at times, 5e-324 reads as 0.0), so cases write m * 2.0**k instead.
def float_lit(f)
  return f.inspect if f.zero?
  return(f > 0 ? "Float::INFINITY" : "-Float::INFINITY") if f.infinite?
  k = [Math.frexp(f)[1] - 53, -1074].max
  "(#{(f / 2.0**k).to_i} * 2.0**#{k})"
end

def float_max
  float_lit(case G.rand(5)
            when 0 then G.rand * 10
            when 1 then G.rand(1.0..1e6)
            when 2 then pick(0.0, 0.5, 1.0, 1.5, 2.0**53, 1e308, Float::MAX, 5e-324)
            when 3 then 10.0**G.rand(-20..300)
            else G.rand(100) + 0.5
            end)
end

def int_range
  a = case G.rand(4)
      when 0 then G.rand(-100..100)
      when 1 then G.rand(-2**40..2**40)
      when 2 then G.rand(-2**80..2**80)
      else pick(0, 1, -1, 2**64, -2**64)
      end
  b = a + pick(G.rand(0..10), G.rand(0..2**35), G.rand(0..2**70), 0, 1, -1, 2**64 - 1, 2**64)
  "#{a}#{pick('..', '...')}#{b}"
end

def float_range
  a, b = case G.rand(5)
         when 0 then [G.rand * 10 - 5, G.rand * 10]
         when 1 then [G.rand(-100..100), G.rand * 200]    # mixed Integer/Float ends
         when 2 then [-Float::MAX, Float::MAX]
         when 3 then [pick(1.0, 0.0, -0.0), pick(1.0, 2.0, 0.0, 2)]
         else [-G.rand(1e300), G.rand(1e300)]
         end
  lit = ->(x) { x.is_a?(Float) ? float_lit(x) : x.to_s }
  "(#{lit[a]})#{pick('..', '...')}(#{lit[b]})"
end

def max_arg
  case G.rand(10)
  when 0..2 then int_max.to_s
  when 3..4 then float_max
  when 5..6 then int_range
  when 7..8 then float_range
  else pick('0', '-5', '-1.5', 'nil', '6..1', '1...1', '1..', '..1', "'x'", '3r', '(1r..3r)',
            '0.5r', 'true', '-(2**70)', '(-2.0..1.0)', 'Float::NAN', '(1.0..Float::INFINITY)')
  end
end

def array_lit = "(0...#{pick(G.rand(0..12), G.rand(0..60), G.rand(0..400))}).to_a"

def op(r)
  case G.rand(r == 'Random' ? 13 : 14)
  when 0 then "#{r}.rand"
  when 1..4 then "#{r}.rand(#{max_arg})"
  when 5 then "#{r}.random_number(#{max_arg})"
  when 6 then "#{r}.bytes(#{G.rand(0..40)})"
  when 7 then "#{array_lit}.shuffle(random: #{r})"
  when 8 then "((a = #{array_lit}).shuffle!(random: #{r}); a)"
  when 9 then "#{array_lit}.sample(random: #{r})"
  when 10..11 then "#{array_lit}.sample(#{pick(G.rand(0..4), G.rand(0..12), G.rand(0..80), G.rand(0..500))}, random: #{r})"
  when 12 then "#{r}.seed"
  else "(d = #{r}.dup; [d.rand(2**32), d == #{r}, #{r}.rand(2**32), d == #{r}])"
  end
end

def case_body
  case G.rand(10)
  when 0..5                             # one or more calls on a seeded Random, then its next word
    calls = Array.new(pick(1, 1, 1, 2, 3)) { op('r') }
    "r = Random.new(#{seed}); [#{calls.join(', ')}, r.rand(2**32)]"
  when 6                                # Kernel#rand and #srand on the default generator
    "old = srand(#{seed}); [srand(#{seed}) == old ? 0 : 1, rand(#{pick(max_arg, max_arg, '-3', '1.5', '-0.5', '0')}), rand(2**32)]"
  when 7                                # the class methods share the default generator
    s = seed
    "Random.srand(#{s}); [Random.seed, #{op('Random')}, rand(2**32), Random.srand == #{s}]"
  when 8                                # the same calls again, on Random (the default generator)
    "srand(#{seed}); [#{op('Random')}, rand(2**32)]"
  else                                  # equality and copies
    s, m = seed, int_max
    "r = Random.new(#{s}); s = Random.new(#{pick(s, seed)}); [r == s, r.rand(#{m}) == s.rand(#{m}), r == s]"
  end
end

File.open(CASES, 'w') do |f|
  f.puts PRELUDE
  COUNT.times { |i| f.puts "c(#{i}) { #{case_body} }" }
end

cruby = IO.popen([ENV.fetch('RUBY', '/usr/bin/ruby'), CASES], err: [:child, :out], &:readlines)
mruby = IO.popen([MRUBY, CASES], err: [:child, :out], &:readlines)
source = File.readlines(CASES).drop(PRELUDE.lines.size)

differ = cruby.each_index.reject { |i| cruby[i] == mruby[i] }
differ.first(20).each do |i|
  puts "case: #{source[i]}", "  ruby: #{cruby[i]}", "  mnrb: #{mruby[i]}"
end
puts "(mnrb printed #{mruby.size} lines, ruby #{cruby.size})" if mruby.size != cruby.size
failed = differ.size + (mruby.size == cruby.size ? 0 : 1)
puts "#{COUNT - differ.size} passed, #{failed} failed"
exit(failed.zero? ? 0 : 1)
