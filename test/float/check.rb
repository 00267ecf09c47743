# Checks mnrb against the cases gen.rb wrote with CRuby (test/float-compare.sh runs both):
#   bin/mnrb check.rb OUTDIR
# Every double must have the same bits as in CRuby (arithmetic through the VM's own float ops
# and through the Float methods), the same to_s/inspect, and strings and literals must read as
# the correctly rounded double (String#to_f, Float()). A case is one line of values.txt or one
# literal; the last line is "N passed, N failed", exit status 1 if any failed.
dir = ARGV[0] || "."

def dbl(lo, hi) = [lo.to_i(16), hi.to_i(16)].pack("VV").unpack("E")[0]
def halves(x) = [x].pack("E").unpack("VV").map { |h| "%08x" % h }.join(" ")

SHOW = 30
$fails = Hash.new(0)
$counts = Hash.new(0)
$shown = 0
$failed_cases = 0

# one case: its block reports each difference; the case fails if any was reported
def check_case(kind)
  $counts[kind] += 1
  failed = false
  yield(lambda do |what, msg|
    failed = true
    $fails[what] += 1
    puts "FAIL #{what}: #{msg}" if ($shown += 1) <= SHOW
  end)
  $failed_cases += 1 if failed
end

def check_value(f, report)
  x = dbl(f[1], f[2])
  s = x.to_s
  report.call(:v_to_s, "#{f[1]} #{f[2]}: #{s} != #{f[3]}") if s != f[3]
  report.call(:v_inspect, f[3]) if x.inspect != f[3]
  report.call(:v_bits, "#{f[1]} #{f[2]} -> #{halves(x)}") if halves(x) != "#{f[1]} #{f[2]}"
  return unless x.finite?
  y = s.to_f
  report.call(:v_roundtrip, "#{s} -> #{halves(y)}") if halves(y) != halves(x)
end

def check_op(f, report)
  a = dbl(f[2], f[3]); b = dbl(f[4], f[5])
  exp = "#{f[6]} #{f[7]}"
  r = case f[1]            # the VM's OP_ADD/SUB/MUL/DIV
      when "+" then a + b
      when "-" then a - b
      when "*" then a * b
      when "/" then a / b
      end
  r2 = a.__send__(f[1], b) # Float#+ etc. (C methods)
  if r.nan?
    report.call(:o_nan, "#{f[1]} #{r}") unless r2.nan? && f[8] == "NaN"
  else
    report.call(:o_vm_bits, "#{a} #{f[1]} #{b}: #{halves(r)} != #{exp}") if halves(r) != exp
    report.call(:o_call_bits, "#{a} #{f[1]} #{b}: #{halves(r2)} != #{exp}") if halves(r2) != exp
  end
  report.call(:o_to_s, "#{r} != #{f[8]}") if r.to_s != f[8]
end

def check_string(f, report)
  str = f[1]; exp = "#{f[2]} #{f[3]}"
  x = str.to_f
  report.call(:s_to_f, "#{str[0, 80]} (#{str.size} chars): #{halves(x)} != #{exp}") if halves(x) != exp
  return unless f[4] == "F"
  y = (Float(str) rescue nil)
  report.call(:s_Float, "#{str[0, 80]}: #{y.inspect}") if y.nil? || halves(y) != exp
end

File.read(File.join(dir, "values.txt")).each_line do |line|
  f = line.chomp.split(" ")
  case f[0]
  when "v" then check_case(:v) { |report| check_value(f, report) }
  when "o" then check_case(:o) { |report| check_op(f, report) }
  when "s" then check_case(:s) { |report| check_string(f, report) }
  end
end

# the parser's float literals
eval(File.read(File.join(dir, "lits.rb")))
LITS.each do |x, lo, hi, s|
  check_case(:lit) do |report|
    exp = "%08x %08x" % [lo, hi]
    report.call(:lit, "#{s}: #{halves(x)} != #{exp}") if halves(x) != exp
  end
end

total = $counts.values.sum
puts "checked: #{$counts.inspect}"
puts "failures: #{$fails.inspect}" unless $fails.empty?
puts "#{total - $failed_cases} passed, #{$failed_cases} failed"
exit($failed_cases == 0 ? 0 : 1)
