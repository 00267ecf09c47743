# Keywords given to Thread.new / Thread.start / Thread.fork reach the thread's block as keywords,
# as in CRuby (mnrb passed them as one more positional Hash), and a subclass's initialize gets them
# as keywords too. A positional Hash stays positional. Expected values are CRuby 3.1's.

class ThreadNewKeywordsTest < MnTest::Case
  class KwThread < Thread
    def initialize(a, k: 0, &blk)
      @seen = [a, k]
      super(a, k: k, &blk)
    end
    attr_reader :seen
  end

  def test_keywords_only
    assert_equal 1, Thread.new(k: 1) { |k:| k }.value
    assert_equal [1, :d], Thread.new(k: 1) { |k:, j: :d| [k, j] }.value
  end

  def test_positionals_and_keywords
    assert_equal [1, 2], Thread.new(1, k: 2) { |a, k:| [a, k] }.value
    assert_equal [1, [2], 3, { z: 4 }], Thread.new(1, 2, k: 3, z: 4) { |a, *r, k:, **o| [a, r, k, o] }.value
  end

  def test_start_and_fork
    assert_equal [5, 6], Thread.start(5, k: 6) { |a, k:| [a, k] }.value
    assert_equal 7, Thread.fork(k: 7) { |k:| k }.value
  end

  def test_missing_or_unknown_keyword_fails_in_the_thread
    t = Thread.new(j: 1) { |k: 0| k }
    t.report_on_exception = false
    assert_raise(ArgumentError) { t.value }
  end

  def test_a_block_without_keywords_gets_the_hash
    assert_equal({ k: 1 }, Thread.new(k: 1) { |h| h }.value)
    assert_equal [[1, { k: 2 }]], [Thread.new(1, k: 2) { |*a| a }.value]
  end

  def test_a_positional_hash_stays_positional
    assert_equal [{ k: 1 }, 0], Thread.new({ k: 1 }) { |h, k: 0| [h, k] }.value
    assert_equal 0, Thread.new(**{}) { |k: 0| k }.value
  end

  def test_subclass_initialize_gets_keywords
    t = KwThread.new(1, k: 2) { |a, k:| [a, k] }
    assert_equal [1, 2], t.seen
    assert_equal [1, 2], t.value
  end
end
