# Cases the upstream gems' own test suites (ruby/singleton, ruby/forwardable, ruby/prime,
# ruby/shellwords) found in mnrb's libraries (helper compat3): Singleton refuses `extend`,
# Forwardable works on an object that extends it, Prime.prime? checks its generator, and
# Shellwords refuses a NUL (shellwords 0.2 of Ruby 3.4+; CRuby 3.3 lets it through, so that case
# runs on mnrb and 3.4+). Checked on CRuby 3.1 (prime) and 3.3.8.
require "singleton"
require "forwardable"
require "shellwords"

class StdlibUpstreamCasesTest < MnTest::Case
  def test_singleton_cannot_extend_an_object
    assert_raise(NoMethodError) { "foo".extend(Singleton) }
  end

  def test_forwardable_on_a_plain_object
    str = String.new
    str.extend Forwardable
    str.instance_variable_set(:@h, 42)
    str.def_delegator("@h", :to_s, :forty_two)
    assert_equal "42", str.forty_two
  end

  def test_prime_checks_its_arguments
    begin
      require "prime"
    rescue LoadError
      skip "prime is a bundled gem not installed here"
    end
    assert_equal "Expected a prime generator, got 2", assert_raise(ArgumentError) { Prime.prime?(1, 2) }.message
    assert_equal "Expected an integer, got 1.2", assert_raise(ArgumentError) { Prime.prime?(1.2) }.message
  end

  def test_shellwords_refuses_nul
    skip "shellwords 0.2 (Ruby 3.4+)" unless mnrb? || RUBY_VERSION >= "3.4"
    assert_raise(ArgumentError) { Shellwords.escape("a\0") }
    assert_raise(ArgumentError) { Shellwords.join(["\0"]) }
  end
end
