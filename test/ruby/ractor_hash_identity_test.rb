# A Hash in compare_by_identity mode keeps that mode when copied to another ractor: as an argument
# of Ractor.new, through send/receive, through a Ractor::Port (4.0), and back as a ractor's value
# (mnrb's copy made an ordinary Hash, whose equal-but-distinct String keys then collapsed).
# Expected values are CRuby 3.1's (whose copy does not find a key by itself, so no test looks one up
# that way); the Port test skips where Ractor::Port is missing.

class RactorHashIdentityTest < MnTest::Case
  def value_of(r) = r.respond_to?(:value) ? r.value : r.take

  def identity_hash
    h = {}.compare_by_identity
    h["a".dup] = 1
    h["a".dup] = 2
    h[:s] = 3
    h
  end

  def test_argument_of_ractor_new
    r = Ractor.new(identity_hash) { |x| [x.compare_by_identity?, x.size, x[:s], x.values.sort] }
    assert_equal [true, 3, 3, [1, 2, 3]], value_of(r)
  end

  def test_an_ordinary_hash_stays_ordinary
    r = Ractor.new({ "a" => 1 }) { |x| [x.compare_by_identity?, x["a"]] }
    assert_equal [false, 1], value_of(r)
  end

  def test_send_and_receive_inside_other_objects
    r = Ractor.new do
      x = Ractor.receive
      h = x[0]
      [h.compare_by_identity?, h.values, h["k"], x[1].compare_by_identity?]
    end
    h = {}.compare_by_identity
    h["k".dup] = :v
    r.send([h, { a: 1 }])
    assert_equal [true, [:v], nil, false], value_of(r)
  end

  def test_the_value_comes_back_in_the_mode
    r = Ractor.new do
      h = {}.compare_by_identity
      h["a".dup] = 1
      h["a".dup] = 2
      h
    end
    h = value_of(r)
    assert_equal [true, 2], [h.compare_by_identity?, h.size]
  end

  def test_through_a_port
    skip "Ractor::Port is Ruby 4.0" unless Ractor.const_defined?(:Port)
    port = Ractor::Port.new
    r = Ractor.new(port) do |pt|
      h = {}.compare_by_identity
      h[[1]] = :a
      pt.send(h)
      :sent
    end
    h = port.receive
    assert_equal [true, 1, nil, :a], [h.compare_by_identity?, h.size, h[[1]], h[h.keys.first]]
    assert_equal :sent, r.value
  end
end
