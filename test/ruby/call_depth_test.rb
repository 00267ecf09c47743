# How deep Ruby methods may recurse, as in CRuby: each thread's VM stack holds
# RUBY_THREAD_VM_STACK_SIZE bytes (1 MiB by default: about 9,000 frames of a small method in CRuby
# 3.1, about 12,000 in mnrb), in the main thread, in other threads and in ractors alike; past it,
# a SystemStackError the program can rescue, never a crash. The limit scales with the variable.

class CallDepthTest < MnTest::Case
  def self.depth(n) = n == 0 ? 0 : 1 + depth(n - 1)

  # The deepest depth(n) that returns (bisection; every probe beyond raises SystemStackError).
  def self.deepest
    lo, hi = 1, 200_000
    while lo < hi
      mid = (lo + hi + 1) / 2
      ok = begin; depth(mid); true; rescue SystemStackError; false; end
      ok ? lo = mid : hi = mid - 1
    end
    lo
  end

  def test_nine_thousand_frames_in_the_main_thread
    assert_equal 9_000, CallDepthTest.depth(9_000)
  end

  def test_nine_thousand_frames_in_another_thread
    assert_equal 9_000, Thread.new { CallDepthTest.depth(9_000) }.value
  end

  def test_nine_thousand_frames_in_a_ractor
    assert_equal 9_000, Ractor.new { CallDepthTest.depth(9_000) }.take
  end

  def test_beyond_the_limit_is_a_rescuable_system_stack_error
    e = begin; CallDepthTest.depth(10_000_000); rescue SystemStackError => err; err; end
    assert_kind_of SystemStackError, e
    assert_equal "stack level too deep", e.message
    assert e.backtrace.first.start_with?("#{__FILE__}:"), e.backtrace.first   # the call that overflowed
    assert_equal 100, CallDepthTest.depth(100)     # and the thread goes on
  end

  def test_every_thread_has_the_same_limit
    main = CallDepthTest.deepest
    other = Thread.new { CallDepthTest.deepest }.value
    assert((main - other).abs <= main / 100, "main #{main}, thread #{other}")
  end

  # The deepest depth(n) in a new interpreter run with RUBY_THREAD_VM_STACK_SIZE=bytes.
  def deepest_with(bytes)
    code = "def d(n) = n == 0 ? 0 : 1 + d(n - 1); lo, hi = 1, 200_000; " \
           "while lo < hi; m = (lo + hi + 1) / 2; ok = begin; d(m); true; rescue SystemStackError; false; end; ok ? lo = m : hi = m - 1; end; print lo"
    out = IO.popen([{ "RUBY_THREAD_VM_STACK_SIZE" => bytes.to_s }, RbConfig.ruby, "-e", code]) { |io| io.read }
    assert_equal 0, $?.exitstatus, out
    out.to_i
  end

  def test_the_limit_scales_with_ruby_thread_vm_stack_size
    half = deepest_with(512 * 1024)
    double = deepest_with(2 * 1024 * 1024)
    assert half > 3_000, "512 KiB: #{half}"
    ratio = double.to_f / half
    assert ratio > 3.5 && ratio < 4.5, "2 MiB #{double} / 512 KiB #{half} = #{ratio}"
  end
end
