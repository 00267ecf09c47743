# Generates random Float cases with CRuby (Debian's /usr/bin/ruby) for check.rb, which runs them
# on mnrb; test/float-compare.sh runs both.
#   ruby gen.rb N SEED OUTDIR
# Writes OUTDIR/values.txt  -- one case a line, fields separated by spaces, doubles as two 32-bit hex halves:
#   v  LO HI  TO_S                      : a double (from random bits) and its CRuby to_s
#   o  OP ALO AHI BLO BHI RLO RHI TO_S  : a OP b = r (OP one of + - * /) and r.to_s
#   s  STR RLO RHI FLAG                  : STR.to_f is r (exact correct rounding); FLAG F if Float(STR) must give r too
#   r  LO HI ND ROUND FLOOR CEIL TRUNC   : x.round(ND) etc. inspected (E: it raised)
# and OUTDIR/lits.rb: float literals and their expected bits (parser check).
n = Integer(ARGV[0] || 20_000)
seed = Integer(ARGV[1] || 1)
dir = ARGV[2] || "."
rng = Random.new(seed)

def bits(x) = [x].pack("D").unpack1("Q")
def dbl(b) = [b].pack("Q").unpack1("D")
def halves(x) = (b = bits(x); format("%08x %08x", b & 0xffffffff, b >> 32))
def next_up(x) = x.next_float
def next_down(x) = x.prev_float

# the double nearest the Rational r, ties to even (the ground truth for reading); neg: the string had a "-"
MAXR = Rational(Float::MAX)
LIM = MAXR + (MAXR - Rational(Float::MAX.prev_float)) / 2
def round_exact(r, neg)
  return neg ? -0.0 : 0.0 if r == 0
  return r > 0 ? Float::INFINITY : -Float::INFINITY if r.abs >= LIM
  x = r.to_f
  x = r > 0 ? Float::MAX : -Float::MAX unless x.finite?
  cands = [x.prev_float, x, x.next_float].select(&:finite?)
  best = cands.min_by { |c| [(Rational(c) - r).abs, bits(c) & 1] }
  best = -0.0 if best == 0 && r < 0
  best
end

def rand_bits_double(rng) = dbl(rng.rand(2**64))

# operands: random bits, subnormals, huge, around the immediate-range edges (2**-255, 2**256), nice numbers
def operand(rng)
  case rng.rand(8)
  when 0, 1 then rand_bits_double(rng)
  when 2 then dbl(rng.rand(2**52) | (rng.rand(2) << 63))                        # subnormal
  when 3 then dbl(((2046 - rng.rand(40)) << 52) | rng.rand(2**52) | (rng.rand(2) << 63))  # huge
  when 4 then (2.0 ** (rng.rand(2) == 0 ? 256 : -255)) * (0.5 + rng.rand) * (rng.rand(2) == 0 ? 1 : -1)
  when 5 then rng.rand(-1000..1000) / 10.0 ** rng.rand(0..5)
  when 6 then dbl((rng.rand(700..1350) << 52) | rng.rand(2**52) | (rng.rand(2) << 63))  # ordinary range
  else rng.rand * 10.0 ** rng.rand(-20..20)
  end
end

def rand_digits(rng, k) = (1..k).map { rng.rand(10).to_s }.join

def dec_string(rng)
  case rng.rand(6)
  when 0 # 17 significant digits
    m = rand_digits(rng, 17); m[0] = (1 + rng.rand(9)).to_s
    "#{m[0]}.#{m[1..]}e#{rng.rand(-330..310)}"
  when 1 # short decimal
    "#{rng.rand(100000)}.#{rand_digits(rng, rng.rand(1..8))}"
  when 2 # many digits
    "#{rand_digits(rng, rng.rand(1..25))}.#{rand_digits(rng, rng.rand(1..40))}e#{rng.rand(-340..300)}"
  when 3 # shortest to_s of a random double (round trip)
    x = rand_bits_double(rng); x = 1.5 unless x.finite?
    x.to_s
  when 4 # exact midpoint between two adjacent doubles, maybe nudged
    x = rand_bits_double(rng).abs; x = 1.25 unless x.finite? && x < Float::MAX
    mid = (Rational(x) + Rational(x.next_float)) / 2
    s = exact_decimal(mid)
    case rng.rand(3)
    when 0 then s
    when 1 then s.include?(".") ? s + "0000000000001" : s + ".0000000000001"
    else nudge_down(s)
    end
  else # 17-digit string with 16..19 digits and signs
    m = rand_digits(rng, rng.rand(16..19)); m[0] = (1 + rng.rand(9)).to_s
    (rng.rand(2) == 0 ? "-" : "") + "#{m}e#{rng.rand(-345..290)}"
  end
end

# decimal expansion of a Rational whose denominator is a power of 2
def exact_decimal(r)
  den = r.denominator; k = 0
  while den > 1; den /= 2; k += 1; end
  num = r.numerator * 5**k           # r = num / 10**k
  s = num.to_s
  return s if k == 0
  s = s.rjust(k + 1, "0")
  "#{s[0...-k]}.#{s[-k..]}"
end

# just below a midpoint written exactly: subtract one unit in a far digit
def nudge_down(s)
  s = s.include?(".") ? s + "0" * 5 : s + ".00000"
  r = Rational(s) - Rational(1, 10**(s.size - s.index(".") - 1))
  exact_decimal_any(r, s.size - s.index(".") - 1)
end

def exact_decimal_any(r, k)
  num = (r * 10**k).to_i
  s = num.to_s.rjust(k + 1, "0")
  "#{s[0...-k]}.#{s[-k..]}"
end

# a number for round(ndigits): decimals near ties (1.005, 2.675), any operand, a few digits
def round_operand(rng)
  case rng.rand(3)
  when 0 then (rng.rand(-100000..100000) + 0.5) / 10.0 ** rng.rand(0..6)
  when 1 then operand(rng)
  else rng.rand(-1e6..1e6).round(rng.rand(0..8)).to_f
  end
end

# "-" (not checked) where CRuby 3.1 is wrong. Integer#ceil of a Bignum or to a Bignum unit
# (19 digits or more) adds a unit to an exact multiple (0.ceil(-19) is 10**19, (2**64 * 10).ceil(-1)
# is 2**64 * 10 + 10), and Float#ceil/truncate end there
def rounded(x, how, nd)
  if nd < 0 && %i(ceil truncate).include?(how) && x.finite?
    c = x.ceil
    return "-" if (c.abs >= 2**62 || nd <= -19) && c % 10**-nd == 0
  end
  r = x.send(how, nd)
  # round beyond 14 digits goes through a Rational, whose to_f in CRuby 3.1 can miss the
  # correctly rounded double by one unit (mnrb gives the correctly rounded one): not checked
  if how == :round && nd > 14 && r.is_a?(Float) && r.finite? && r != 0
    return "-" if round_exact(Rational(x).round(nd, half: :up), x < 0) != r
  end
  r.inspect
rescue FloatDomainError
  "E"
end

nv = n * 35 / 100; no = n * 35 / 100; nr = n / 10; ns = n - nv - no - nr
out = File.open(File.join(dir, "values.txt"), "w")
nv.times do
  x = rand_bits_double(rng)
  out.puts "v #{halves(x)} #{x}"
end
# all powers of two and their neighbours, and the immediate-range edges
(-1074..1023).each do |e|
  x = 2.0**e
  [x, x.prev_float, x.next_float].each { |y| out.puts "v #{halves(y)} #{y}" if y > 0 && y.finite? }
end
[0.0, -0.0, Float::NAN, Float::INFINITY, -Float::INFINITY, Float::MAX, Float::MIN, 5e-324].each { |x| out.puts "v #{halves(x)} #{x}" }
ops = %w(+ - * /)
no.times do |i|
  op = ops[i % 4]
  a = operand(rng); b = operand(rng)
  r = a.send(op, b)
  out.puts "o #{op} #{halves(a)} #{halves(b)} #{halves(r)} #{r}"
end
nr.times do
  x = round_operand(rng)
  nd = rng.rand(-25..25)
  out.puts "r #{halves(x)} #{nd} #{%i(round floor ceil truncate).map { |m| rounded(x, m, nd) }.join(' ')}"
end
mism = 0; mism_short = 0; nshort = 0
ns.times do
  s = dec_string(rng)
  exact = round_exact(Rational(s), s.start_with?("-"))
  cr = s.to_f
  sig = s.sub(/e.*/i, "").delete("-.").sub(/\A0+/, "").sub(/0+\z/, "").size
  short = sig <= 17
  nshort += 1 if short
  if bits(cr) != bits(exact)
    mism += 1
    mism_short += 1 if short
    warn "CRuby to_f differs from exact rounding: #{s[0, 60]}... (#{s.size} chars) #{cr} vs #{exact}" if mism < 3
  end
  fl = (Float(s) rescue nil)
  out.puts "s #{s} #{halves(exact)} #{fl && bits(fl) == bits(exact) ? 'F' : '-'}"
end
out.close
warn "CRuby String#to_f differed from exact rounding in #{mism} of #{ns} strings; " \
     "in #{mism_short} of the #{nshort} with at most 17 significant digits"

# literals for the parser: positive literals of the kinds above (no sign: a leading - is a unary minus)
File.open(File.join(dir, "lits.rb"), "w") do |f|
  f.puts "LITS = []"
  (n / 4).times do
    s = dec_string(rng).delete_prefix("-")
    s = s.sub(/\A0+(?=\d)/, "").sub(/\A\./, "0.")
    s = s.sub(/\.e/, ".0e")
    s += ".0" unless s =~ /[.e]/
    x = round_exact(Rational(s), false)
    f.puts "LITS << [#{s}, #{bits(x) & 0xffffffff}, #{bits(x) >> 32}, #{s[0, 40].inspect}]"
  end
end
