# A feature required in a ractor is there for the other ractors too: an instance of a class it
# defines comes back to a main ractor that never required it (CRuby 4.0 runs a ractor's require in
# the main ractor, Ractor._require; CRuby 3.x shares one class table). mnrb loads the feature in the
# ractor that required it and lists it; a heap that meets one of its classes in a message requires
# it too (mrbgems/mnrb-ractor/src/required_features.c; bootstraptest/test_ractor.rb L1910).
# Each case runs in a child process: CRuby 3.x's rubygems refuses require in a ractor, so CRuby runs
# it with --disable-gems (checked on 3.3.8 and Debian's 3.1).

require "tmpdir"

class RactorRequireTest < MnTest::Case
  def run_child(code)
    args = mnrb? ? [] : ["--disable-gems", "-W0"]
    IO.popen([RbConfig.ruby, "-W:no-experimental", *args, "-e", code], err: [:child, :out], &:read)
  end

  def with_feature(name, body)
    Dir.mktmpdir("mnrb-ractor-require") do |dir|
      path = File.join(dir, "#{name}.rb")
      File.write(path, body)
      yield path
    end
  end

  def test_an_instance_of_a_class_a_ractor_required_comes_back
    with_feature("ractor_req_a", "class RactorReqA\n  def initialize(v) = (@v = v)\n  attr_reader :v\nend\n") do |path|
      out = run_child(<<~RUBY)
        r = Ractor.new(#{path.inspect}) { |f| require f; [RactorReqA.new(5), RactorReqA] }
        x, k = r.take
        p [x.class, x.v, k, $LOADED_FEATURES.count { |e| e.end_with?("ractor_req_a.rb") }]
        p require(#{path.inspect})
      RUBY
      assert_equal "[RactorReqA, 5, RactorReqA, 1]\nfalse\n", out
    end
  end

  # a later ractor finds the class already loaded in the main ractor (CRuby: one class table)
  def test_a_later_ractor_gets_the_class
    with_feature("ractor_req_b", "class RactorReqB; def hi = :hi; end\n") do |path|
      out = run_child(<<~RUBY)
        Ractor.new(#{path.inspect}) { |f| require f; 1 }.take
        p Ractor.new { defined?(RactorReqB) ? RactorReqB.new.hi : :missing }.take
        p RactorReqB.new.hi
      RUBY
      assert_equal ":hi\n:hi\n", out
    end
  end

  # CRuby 3.4+: Ractor._require loads the feature for the caller
  def test_ractor_require_method
    skip "Ractor._require is CRuby 3.4+" unless Ractor.respond_to?(:_require)
    with_feature("ractor_req_c", "class RactorReqC; end\n") do |path|
      out = run_child(<<~RUBY)
        p Ractor.new(#{path.inspect}) { |f| [Ractor._require(f), Ractor._require(f), RactorReqC.new] }.take.map(&:class)
      RUBY
      assert_equal "[TrueClass, FalseClass, RactorReqC]\n", out
    end
  end
end
