# Kernel#pp and PP, as in CRuby 3.1's pp.rb (width 79); expected outputs were printed by `ruby`.

# What the block writes to $stdout (through a pipe: keep it small).
def stdlib_capture
  r, w = IO.pipe
  saved = $stdout
  $stdout = w
  begin
    yield
  ensure
    $stdout = saved
    w.close
  end
  out = r.read
  r.close
  out
end


def compat_pp(obj)
  PP.pp(obj, '')
end

assert('pp returns its argument(s) like p') do
  stdlib_capture do
    assert_nil pp
    assert_equal 1, pp(1)
    assert_equal [1, [2]], pp(1, [2])
  end
end

assert('pp prints each argument on its own line') do
  assert_equal "1\n[2]\n", stdlib_capture { pp 1, [2] }
end

assert('pp prints short objects as inspect') do
  assert_equal "nil\n", compat_pp(nil)
  assert_equal "[1, \"a\", :b, {:c=>2}]\n", compat_pp([1, 'a', :b, { c: 2 }])
  assert_equal "1..2\n", compat_pp(1..2)
  assert_equal "\"#{'x' * 100}\"\n", compat_pp('x' * 100)
end

assert('pp breaks a long Array one element per line') do
  assert_equal "[" + (1..40).to_a.join(",\n ") + "]\n", compat_pp((1..40).to_a)
  assert_equal "[" + (['[]'] * 30).join(",\n ") + "]\n", compat_pp([[]] * 30)
end

assert('pp breaks a long Hash and its values') do
  exp = "{:a=>\"#{'x' * 70}\",\n :b=>\n  [" + (['1'] * 30).join(",\n   ") + "]}\n"
  assert_equal exp, compat_pp({ a: 'x' * 70, b: [1] * 30 })
end

assert('pp prints Structs like CRuby') do
  s = Struct.new(:aa, :bb)
  PPS = s
  assert_equal "#<struct PPS aa=1, bb=2>\n", compat_pp(PPS.new(1, 2))
  exp = "#<struct PPS\n aa=\n  [" + (1..30).to_a.join(",\n   ") + "],\n bb={:x=>1}>\n"
  assert_equal exp, compat_pp(PPS.new((1..30).to_a, { x: 1 }))
  assert_equal "#<struct  a=1>\n", compat_pp(Struct.new(:a).new(1))
end

assert('pp prints multi-line Strings as a sum of lines') do
  assert_equal "\"a\\n\" + \"b\"\n", compat_pp("a\nb")
end

assert('pp marks recursive structures') do
  a = [1]
  a << a
  assert_equal "[1, [...]]\n", compat_pp(a)
  h = {}
  h[:a] = h
  assert_equal "{:a=>{...}}\n", compat_pp(h)
end

assert('pp uses a user-defined pretty_print') do
  o = Object.new
  def o.pretty_print(q)
    q.group(1, '<', '>') { q.text 'a'; q.breakable; q.text 'b' }
  end
  assert_equal "<a b>\n", compat_pp(o)
  assert_equal "<a b>\n", o.pretty_inspect
end

assert('PrettyPrint.format wraps at the given width') do
  out = PrettyPrint.format('', 10) do |q|
    q.group(2, '(', ')') { %w[aaa bbb ccc ddd].each_with_index { |w, i| q.breakable if i > 0; q.text w } }
  end
  assert_equal "(aaa\n  bbb\n  ccc\n  ddd)", out
end
