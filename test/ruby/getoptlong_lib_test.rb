# require "getoptlong" as CRuby's GetoptLong (helper compat3): canonical names, abbreviated long
# options, clustered short ones, the three orderings, "--", and CRuby's errors and messages
# (printed as "$0: message" unless quiet). Expectations checked on CRuby 3.1 and 3.3.8.
require "getoptlong"

class GetoptLongLibTest < MnTest::Case
  OPTS = [['--verbose', '-v', GetoptLong::NO_ARGUMENT], ['--name', '-n', GetoptLong::REQUIRED_ARGUMENT],
          ['--level', GetoptLong::OPTIONAL_ARGUMENT], ['--vers', GetoptLong::NO_ARGUMENT]]

  def parse(argv, ordering = nil)
    ARGV.replace(argv)
    g = GetoptLong.new(*OPTS)
    g.ordering = ordering if ordering
    g.quiet = true
    got = []
    g.each { |name, arg| got << [name, arg] }
    [got, ARGV.dup]
  end

  def test_permute_collects_the_non_options
    got, rest = parse(%w(-v a --name=x b -nfoo --level --level=3 --nam y -- -v c))
    assert_equal [["--verbose", ""], ["--name", "x"], ["--name", "foo"], ["--level", ""],
                  ["--level", "3"], ["--name", "y"]], got
    assert_equal %w(a b -v c), rest
  end

  def test_clusters_and_optional_arguments
    got, rest = parse(%w(-vn z --level 4 --level -v))
    assert_equal [["--verbose", ""], ["--name", "z"], ["--level", "4"], ["--level", ""], ["--verbose", ""]], got
    assert_equal [], rest
  end

  def test_orderings
    assert_equal [[], %w(a -v b)], parse(%w(a -v b), GetoptLong::REQUIRE_ORDER)
    assert_equal [[["", "a"], ["--verbose", ""], ["", "b"]], []], parse(%w(a -v b), GetoptLong::RETURN_IN_ORDER)
    assert_equal [[], ["-"]], parse(%w(-))
  end

  def error_of(argv)
    e = assert_raise(GetoptLong::Error) { parse(argv) }
    [e.class, e.message]
  end

  def test_errors
    assert_equal [GetoptLong::AmbiguousOption, "option `--ve' is ambiguous between --verbose, --vers"], error_of(%w(--ve))
    assert_equal [GetoptLong::NeedlessArgument, "option `--verbose' doesn't allow an argument"], error_of(%w(--verbose=3))
    assert_equal [GetoptLong::MissingArgument, "option `--name' requires an argument"], error_of(%w(--name))
    assert_equal [GetoptLong::MissingArgument, "option requires an argument -- n"], error_of(%w(-n))
    assert_equal [GetoptLong::InvalidOption, "invalid option -- q"], error_of(%w(-q))
    assert_equal [GetoptLong::InvalidOption, "unrecognized option `--bogus'"], error_of(%w(--bogus))
  end

  def test_error_state
    ARGV.replace(%w(--bogus))
    g = GetoptLong.new(*OPTS)
    g.quiet = true
    assert_raise(GetoptLong::InvalidOption) { g.get }
    assert_equal GetoptLong::InvalidOption, g.error
    assert_equal "unrecognized option `--bogus'", g.error_message
    assert_nil g.get
  end

  def test_set_options_errors
    g = GetoptLong.new
    assert_equal "no argument-flag", assert_raise(ArgumentError) { g.set_options(['-x', 7]) }.message
    assert_equal "an invalid option `x'", assert_raise(ArgumentError) { g.set_options(['x', 0]) }.message
    assert_equal "option redefined `--x'", assert_raise(ArgumentError) { g.set_options(['--x', '--x', 0]) }.message
    assert_equal "invalid ordering `9'", assert_raise(ArgumentError) { g.ordering = 9 }.message
  end

  def test_get_and_terminate
    ARGV.replace(%w(-a))
    g = GetoptLong.new(['-a', GetoptLong::NO_ARGUMENT])
    assert_equal ["-a", ""], g.get
    assert_nil g.get
    assert g.terminated?
    e = assert_raise(RuntimeError) { g.set_options(['-b', 0]) }
    assert_equal "invoke set_options, but option processing has already started", e.message
  end

  def test_error_printed_with_the_program_name
    r, w = IO.pipe
    saved = $stderr
    $stderr = w
    begin
      ARGV.replace(%w(-q))
      assert_raise(GetoptLong::InvalidOption) { GetoptLong.new(*OPTS).get }
    ensure
      $stderr = saved
      w.close
    end
    assert_equal "#{$0}: invalid option -- q\n", r.read
  end
end
