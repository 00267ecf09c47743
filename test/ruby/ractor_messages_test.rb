# What crosses between ractors: Rational and Complex, exceptions with their backtraces, and
# Ractor.select over any number of sources.

class RactorMessagesTest < MnTest::Case
  Deep = Struct.new(:inner)

  def result(r)
    r.respond_to?(:value) ? r.value : r.take
  end

  def test_rational_and_complex_as_arguments
    r = Ractor.new(Rational(1, 3), Complex(1, 2)) { |x, y| [x, y, x.class, y.class, x * 3] }
    assert_equal [Rational(1, 3), Complex(1, 2), Rational, Complex, 1], result(r)
  end

  def test_rational_and_complex_as_messages_and_values
    r = Ractor.new { [receive * 2, receive.imaginary] }
    r << Rational(-5, 7) << Complex(0, 3)
    assert_equal [Rational(-10, 7), 3], result(r)
  end

  def test_rational_and_complex_inside_a_graph
    msg = { r: [Rational(2, 4)], c: Deep.new(Complex(1, -1)) }
    r = Ractor.new(msg) { |m| [m[:r].first, m[:c].inner] }
    assert_equal [Rational(1, 2), Complex(1, -1)], result(r)
  end

  def test_rational_and_complex_are_shareable
    assert_equal true, Ractor.shareable?(Rational(1, 3))
    assert_equal true, Ractor.shareable?(Complex(1, 2))
    assert_equal true, Ractor.shareable?([Rational(1, 3)].freeze)
  end

  def test_an_exception_keeps_its_backtrace_when_it_ends_a_ractor
    line = __LINE__ + 2
    r = Ractor.new do
      f = -> { raise "boom" }
      f.call
    end
    e = assert_raise(Ractor::RemoteError) { result(r) }
    bt = e.cause.backtrace
    assert_kind_of Array, bt
    assert_equal true, bt.size >= 2, bt.inspect
    assert_equal true, bt[0].include?("#{File.basename(__FILE__)}:#{line}:"), bt.inspect
    assert_equal true, bt[1].include?("#{File.basename(__FILE__)}:#{line + 1}:"), bt.inspect
  end

  def test_an_exception_sent_as_a_message_keeps_its_backtrace
    e = begin; raise ArgumentError, "sent"; rescue => x; x; end
    r = Ractor.new(e) { |ex| [ex.class, ex.message, ex.backtrace] }
    klass, message, bt = result(r)
    assert_equal [ArgumentError, "sent"], [klass, message]
    # CRuby 3.1 sends it with an empty backtrace; newer ones (and mnrb) keep it
    assert_equal e.backtrace, bt unless RUBY_VERSION < "3.2"
  end

  def test_select_over_many_ractors
    rs = 300.times.map { |i| Ractor.new(i) { |x| x } }
    got = []
    until rs.empty?
      r, v = Ractor.select(*rs)
      rs.delete(r)
      got << v
    end
    assert_equal (0...300).to_a, got.sort
  end

  def test_select_over_many_ports
    skip "no Ractor::Port before Ruby 3.5" unless defined?(Ractor::Port)
    ports = 300.times.map { Ractor::Port.new }
    Ractor.new(ports) { |ps| ps.each_with_index { |po, i| po << i } }
    got = []
    300.times do
      po, v = Ractor.select(*ports)
      assert_equal ports.index(po), v
      got << v
    end
    assert_equal (0...300).to_a, got.sort
  end
end
