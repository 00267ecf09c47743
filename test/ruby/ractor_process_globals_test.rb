# Process-level names seen from a ractor (issue 20, "Isolation"): $-W, autoload, STDERR, GC.compact,
# GC.verify_internal_consistency.
# Expected values from CRuby 3.1.2 and 3.3.8; CRuby 4.0's (autoload works in a ractor) checked on
# mnrb or RUBY_VERSION >= 4.0; mnrb's documented differences (docs/DESIGN.md) where CRuby differs.
class RactorProcessGlobalsTest < MnTest::Case
  def ractor4? = mnrb? || RUBY_VERSION >= "4.0"

  def tmp_path(name)
    File.join(ENV["TMPDIR"] || "/tmp", "mnrb_#{name}_#{$$}_#{rand(1 << 30)}.rb")
  end

  def test_warning_level_follows_verbose
    old = $VERBOSE
    $VERBOSE = false
    assert_equal 1, $-W
    $VERBOSE = nil
    assert_equal 0, $-W
    assert_equal [0, nil], Ractor.new { [$-W, $VERBOSE] }.take
    $VERBOSE = true
    assert_equal 2, $-W
    assert_equal [2, true], Ractor.new { [$-W, $VERBOSE] }.take
  ensure
    $VERBOSE = old
  end

  def test_warning_level_is_read_only_and_listed
    e = assert_raise(NameError) { eval("$-W = 1") }
    assert_equal "$-W is a read-only variable", e.message
    assert_include global_variables, :"$-W"
    assert_equal "global-variable", defined?($-W)
  end

  module AutoloadHost; end

  def test_autoload_registered_by_the_creator
    path = tmp_path("ractor_autoload")
    File.write(path, "module RactorAutoloadFixture; VALUE = 42; end\n")
    Object.autoload(:RactorAutoloadFixture, path)
    inner = tmp_path("ractor_autoload_inner")
    File.write(inner, "module RactorProcessGlobalsTest::AutoloadHost; Inner = :inner; end\n")
    AutoloadHost.autoload(:Inner, inner)
    r = Ractor.new do
      [RactorAutoloadFixture::VALUE, RactorProcessGlobalsTest::AutoloadHost::Inner]
    rescue Ractor::UnsafeError => e
      e.message
    end
    if ractor4?
      assert_equal [42, :inner], r.take
    else
      assert_equal "require by autoload on non-main Ractor is not supported (RactorAutoloadFixture)", r.take
    end
    assert_equal 42, RactorAutoloadFixture::VALUE      # the creator's own autoload is still there
    assert_equal :inner, AutoloadHost::Inner
  ensure
    File.delete(path) if path && File.exist?(path)
    File.delete(inner) if inner && File.exist?(inner)
  end

  def test_a_failed_autoload_in_a_ractor
    skip "CRuby 3.x refuses autoload in a ractor (UnsafeError)" unless ractor4?
    Object.autoload(:RactorAutoloadMissing, tmp_path("not_there"))
    assert_equal LoadError, Ractor.new { begin; RactorAutoloadMissing; rescue LoadError => e; e.class; end }.take
  end

  # CRuby: STDIN, STDOUT, STDERR and ARGF are unshareable constants (IsolationError); a ractor writes
  # through its own $stdout/$stderr, which are not the main ractor's objects
  def test_standard_stream_constants_in_a_ractor
    %w[STDIN STDOUT STDERR ARGF].each do |name|
      r = Ractor.new(name) { |n| eval(n).class }
      e = assert_raise(Ractor::RemoteError) { r.take }
      assert_kind_of Ractor::IsolationError, e.cause
      # 3.1-3.3 name the lexical class ("RactorProcessGlobalsTest::STDERR"), 3.4+ Object::STDERR
      assert(/\Acan not access non-shareable objects in constant \w+::#{name} by non-main Ractor\.\z/.match?(e.cause.message), e.cause.message)
    end
    assert_equal [0, 1, 2], Ractor.new { [$stdin.fileno, $stdout.fileno, $stderr.fileno] }.take
  end

  # CRuby's bootstraptest L1967: an instance of a class a ractor autoloaded goes back to a ractor
  # that only registered the autoload (CRuby shares the class; mnrb's receiver loads it then)
  def test_an_instance_of_an_autoloaded_class_crosses_back
    skip "CRuby 3.x refuses autoload in a ractor (UnsafeError)" unless ractor4?
    path = tmp_path("ractor_autoload_back")
    File.write(path, "class RactorAutoloadBack; attr_reader :v; def initialize = @v = [1, :two]; end\n")
    Object.autoload(:RactorAutoloadBack, path)
    o = Ractor.new { RactorAutoloadBack.new }.take
    assert_equal [RactorAutoloadBack, [1, :two]], [o.class, o.v]
    assert_nil Object.autoload?(:RactorAutoloadBack)
  ensure
    File.delete(path) if path && File.exist?(path)
  end

  # Exception#full_message in a ractor (it looked STDERR up to choose colours): no colours, as CRuby's
  # non-main ractor, whose $stderr is never the original
  def test_full_message_in_a_ractor
    msg = Ractor.new { RuntimeError.new("boom").full_message }.take
    assert msg.include?("boom (RuntimeError)"), msg
    assert !msg.include?("\e["), msg
  end

  # CRuby raises this where compaction is unsupported; mruby's GC never moves objects (DESIGN.md)
  def test_gc_compact_is_not_implemented
    mnrb_only
    e = assert_raise(NotImplementedError) { GC.compact }
    assert_equal "compact() function is unimplemented on this machine", e.message
    assert_equal :unsupported, Ractor.new { begin; GC.compact; rescue NotImplementedError; :unsupported; end }.take
  end

  # CRuby's bootstraptest L2573 calls it in a child forked after ractors ran: nil on a sound heap
  def test_gc_verify_internal_consistency
    assert_nil GC.verify_internal_consistency
    assert_nil Ractor.new { Array.new(1000) { |i| "s#{i}" }; GC.verify_internal_consistency }.take
  end
end
