# Proc#inspect as CRuby: the address, the source location when the proc has one, "(lambda)" for a
# lambda; procs made by built-in methods (curry) have no location (mruby patch 0218).

class ProcInspectTest < MnTest::Case
  def test_a_block_shows_where_it_was_written
    pr = proc { }
    line = __LINE__ - 1
    assert(/\A#<Proc:0x\h+ #{Regexp.escape(__FILE__)}:#{line}>\z/.match?(pr.inspect), pr.inspect)
    lam = lambda { }
    assert(/\A#<Proc:0x\h+ #{Regexp.escape(__FILE__)}:#{line + 3} \(lambda\)>\z/.match?(lam.inspect), lam.inspect)
  end

  def test_a_curried_lambda_has_no_location
    add = ->(a, b) { a + b }
    c = add.curry
    assert(/\A#<Proc:0x\h+ \(lambda\)>\z/.match?(c.inspect), c.inspect)
    assert_equal 3, c[1][2]
    assert_equal c.inspect, c.to_s
  end
end
