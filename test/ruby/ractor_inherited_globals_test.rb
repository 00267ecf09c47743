# Issue 20, isolation: $VERBOSE and $DEBUG are ractor-local, and a new ractor starts with the values
# of the ractor that created it (CRuby's bootstraptest/test_ractor.rb "$DEBUG, $VERBOSE are Ractor
# local"; CRuby 3.1 agrees); what a ractor sets stays its own. The other globals that test compares
# ($stdin's inspect among them: io_inspect_test.rb) read the same in a ractor as in the main one.
# the bootstraptest's comparison, for the globals that mean the same in a ractor
module RactorGlobalsSeen
  def self.now
    /a(b)(c)d/ =~ 'abcd'
    { '$DEBUG' => $DEBUG, '$-d' => $-d, '$VERBOSE' => $VERBOSE, '$-w' => $-w, '$-v' => $-v,
      '$-p' => $-p, '$-l' => $-l, '$-a' => $-a, '$$' => $$, '$~' => $~.inspect, '$&' => $&,
      '$1' => $1, '$_' => $_, '$!' => $!, '$stdin' => $stdin.inspect, '$stdout' => $stdout.inspect,
      '$stderr' => $stderr.inspect }
  end
end

class RactorInheritedGlobalsTest < MnTest::Case
  def result(r) = Ractor.method_defined?(:value) ? r.value : r.take

  def around_flags(verbose, debug)
    saved = [$VERBOSE, $DEBUG]
    $VERBOSE, $DEBUG = verbose, debug
    yield
  ensure
    $VERBOSE, $DEBUG = saved
  end

  def test_a_new_ractor_starts_with_its_creator_s_verbose_and_debug
    [[true, true], [nil, false], [false, true]].each do |verbose, debug|
      around_flags(verbose, debug) do
        got = result(Ractor.new { [$VERBOSE, $DEBUG, $-v, $-w, $-d] })
        assert_equal [verbose, debug, verbose, verbose, debug], got
      end
    end
  end

  def test_the_arguments_and_the_block_are_unchanged
    around_flags(true, true) do
      assert_equal [1, [2, 3], true], result(Ractor.new(1, 2, 3) { |a, *b| [a, b, $DEBUG] })
      assert_equal [[], true], result(Ractor.new { |*a| [a, $DEBUG] })
    end
  end

  def test_a_ractor_s_settings_are_its_own_and_its_children_s
    around_flags(false, false) do
      r = Ractor.new do
        $VERBOSE = nil
        $DEBUG = true
        child = Ractor.new { [$VERBOSE, $DEBUG] }
        [Ractor.method_defined?(:value) ? child.value : child.take, $VERBOSE, $DEBUG]
      end
      assert_equal [[nil, true], nil, true], result(r)
      assert_equal [false, false], [$VERBOSE, $DEBUG]
    end
  end

  def test_the_ractor_local_globals_read_as_in_the_creator
    around_flags(true, true) do
      assert_equal RactorGlobalsSeen.now, result(Ractor.new { RactorGlobalsSeen.now })
    end
  end
end
