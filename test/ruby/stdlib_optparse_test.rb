# require "optparse" as CRuby's: option forms (-x, -xVAL, -x VAL, --name=VAL, --name VAL,
# optional arguments, --[no-]flag, clustered shorts), conversions (Integer, Float, Numeric, Array,
# TrueClass, DecimalInteger, lists and maps of values), abbreviations, parse!/parse/order!,
# "--", into:, the help summary laid out as CRuby's, and ParseError subclasses with CRuby's
# messages. Expected values are CRuby 3.1's.
require "optparse"
require "rbconfig"

class StdlibOptparseTest < MnTest::Case
  def parser(opts)
    OptionParser.new do |o|
      o.banner = "Usage: tool [options]"
      o.separator ""
      o.separator "Specific options:"
      o.on("-v", "--[no-]verbose", "Run verbosely") { |v| opts[:verbose] = v }
      o.on("-n", "--name=NAME", "Name to use") { |v| opts[:name] = v }
      o.on("-c", "--count COUNT", Integer, "How many") { |v| opts[:count] = v }
      o.on("-r", "--ratio [R]", Float, "Optional ratio") { |v| opts[:ratio] = v }
      o.on("-l", "--list A,B", Array, "A list") { |v| opts[:list] = v }
      o.on("--level LEVEL", [:low, :high], "Level (low, high)") { |v| opts[:level] = v }
      o.on("-x", "Short only") { |v| opts[:x] = v }
      o.on("--long-only", "Long only, a very long description that goes on") { |v| opts[:lo] = v }
      o.on("-q", "--quiet") { opts[:quiet] = true }
      o.separator ""
      o.on_tail("-h", "--help", "Show help") { opts[:help] = true }
    end
  end

  def run_parser(argv)
    opts = {}
    rest = parser(opts).parse!(argv)
    [opts, rest]
  end

  def parse_error(argv)
    e = assert_raise(OptionParser::ParseError) { run_parser(argv) }
    [e.class, e.message, e.args]
  end

  def test_long_and_short_forms_leave_other_arguments
    argv = %w(-v --name=bob -c 3 file1 --ratio 1.5 file2)
    opts, rest = run_parser(argv)
    assert_equal({ verbose: true, name: "bob", count: 3, ratio: 1.5 }, opts)
    assert_equal %w(file1 file2), rest
    assert_same argv, rest
  end

  def test_attached_values_negation_and_lists
    opts, rest = run_parser(%w(--no-verbose -nalice -c3 -r -l a,b,c -x --level high))
    assert_equal({ verbose: false, name: "alice", count: 3, ratio: nil, list: %w(a b c), x: true, level: :high }, opts)
    assert_equal [], rest
  end

  def test_clustered_shorts_and_double_dash
    opts, rest = run_parser(%w(-vx --name bob -- -c))
    assert_equal({ verbose: true, x: true, name: "bob" }, opts)
    assert_equal ["-c"], rest
  end

  def test_optional_argument_taken_only_when_it_converts
    opts, rest = run_parser(%w(-r 2 -r x))
    assert_equal({ ratio: nil }, opts)
    assert_equal ["x"], rest
  end

  def test_abbreviations
    assert_equal [{ verbose: true }, []], run_parser(%w(--verb))
    assert_equal [{ name: "x" }, []], run_parser(%w(--na=x))
    assert_equal [{ level: :low }, []], run_parser(%w(--lev=lo))
  end

  def test_errors_and_their_messages
    assert_equal [OptionParser::InvalidArgument, "invalid argument: --count abc", ["--count", "abc"]], parse_error(%w(--count abc))
    assert_equal [OptionParser::MissingArgument, "missing argument: --count", ["--count"]], parse_error(%w(--count))
    assert_equal [OptionParser::InvalidOption, "invalid option: --bogus", ["--bogus"]], parse_error(%w(--bogus))
    assert_equal [OptionParser::InvalidOption, "invalid option: -z", ["-z"]], parse_error(%w(-z))
    assert_equal [OptionParser::InvalidOption, "invalid option: -y", ["-y"]], parse_error(%w(-vy))
    assert_equal [OptionParser::InvalidArgument, "invalid argument: --level mid", ["--level", "mid"]], parse_error(%w(--level mid))
    assert_equal [OptionParser::NeedlessArgument, "needless argument: --quiet=1", ["--quiet=1"]], parse_error(%w(--quiet=1))
    assert_equal [OptionParser::MissingArgument, "missing argument: -c", ["-c"]], parse_error(%w(-c))
  end

  def test_ambiguous_option
    o = OptionParser.new { |p| p.on("--verbose"); p.on("--version-x") }
    e = assert_raise(OptionParser::AmbiguousOption) { o.parse(%w(--ver)) }
    assert_equal "ambiguous option: --ver", e.message
  end

  def test_error_objects
    e = OptionParser::InvalidOption.new("--foo")
    assert_equal "invalid option: --foo", e.message
    assert_equal "invalid option", e.reason
    assert_equal ["--foo"], e.args
    assert_equal "missing argument: -c", OptionParser::MissingArgument.new("-c").message
    assert_equal "invalid argument: --c x", OptionParser::InvalidArgument.new("--c", "x").message
    assert_kind_of RuntimeError, e
  end

  def test_help_summary_layout
    expected = <<~HELP
      Usage: tool [options]

      Specific options:
          -v, --[no-]verbose               Run verbosely
          -n, --name=NAME                  Name to use
          -c, --count COUNT                How many
          -r, --ratio [R]                  Optional ratio
          -l, --list A,B                   A list
              --level LEVEL                Level (low, high)
          -x                               Short only
              --long-only                  Long only, a very long description that goes on
          -q, --quiet

          -h, --help                       Show help
    HELP
    assert_equal expected, parser({}).help
    assert_equal expected, parser({}).to_s
  end

  def test_long_names_that_overflow_the_column
    o = OptionParser.new("Usage: x")
    o.on("-c", "--abcdefghijklmnopqrstuvwxyz", "desc")
    o.on("-d", "--abcdefghijklmnopqrstuvwxyz1", "desc")
    o.on("--a-really-long-option-name-here=VALUE", "desc one", "desc two")
    o.on("-n", "--name", "--nick NAME")
    expected = <<~HELP
      Usage: x
          -c, --abcdefghijklmnopqrstuvwxyz desc
          -d                               desc
              --abcdefghijklmnopqrstuvwxyz1
              --a-really-long-option-name-here=VALUE
                                           desc one
                                           desc two
          -n, --name, --nick NAME
    HELP
    assert_equal expected, o.help
  end

  def test_argument_given_apart_from_the_names
    got = {}
    o = OptionParser.new("Usage: x")
    o.on("-i", "--infile", "=INFILE", "Input file") { |a| got[:i] = a }
    o.on("-o", "--opt", "=[OPT]", "Optional") { |a| got[:o] = a }
    o.on("-m", "--mode", "MODE") { |a| got[:m] = a }
    o.on("--int", "=N", Integer) { |a| got[:int] = a }
    expected = <<~HELP
      Usage: x
          -i, --infile=INFILE              Input file
          -o, --opt=[OPT]                  Optional
          -m, --mode                       MODE
              --int=N
    HELP
    assert_equal expected, o.help
    assert_equal ["x"], o.parse(%w(-i f --opt --infile=g --int 3 -m x))
    assert_equal({ i: "g", o: true, int: 3, m: true }, got)
  end

  def test_conversions
    got = []
    o = OptionParser.new do |p|
      p.on("-i N", Integer) { |v| got << v }
      p.on("-d N", OptionParser::DecimalInteger) { |v| got << v }
      p.on("--bool VAL", TrueClass) { |v| got << v }
      p.on("--map M", { "one" => 1, "two" => 2 }) { |v| got << v }
      p.on("--num N", Numeric) { |v| got << v }
    end
    o.parse(%w(-i 0x1f -d 010 --bool no --map tw --num 3 --num 3.5))
    assert_equal [31, 10, false, 2, 3, 3.5], got
    e = assert_raise(OptionParser::InvalidArgument) { o.parse(%w(-i 1.5)) }
    assert_equal "invalid argument: -i 1.5", e.message
  end

  def test_into_hash
    h = {}
    o = OptionParser.new
    o.on("-a", "--alpha")
    o.on("--beta=B", Integer)
    o.on("--long-name [X]")
    o.on("-g VAL") { |v| v.upcase }
    o.on("--[no-]color")
    assert_equal ["rest"], o.parse(%w(-a --beta 2 --long-name -g x --no-color rest), into: h)
    assert_equal({ alpha: true, beta: 2, "long-name": nil, g: "X", color: false }, h)
  end

  def test_parse_does_not_change_its_argument_and_order_stops
    argv = %w(-a x -a)
    o = OptionParser.new { |p| p.on("-a") }
    assert_equal ["x"], o.parse(argv)
    assert_equal %w(-a x -a), argv
    assert_equal ["x", "-a"], o.order(argv)
    assert_equal ["-a", "b"], OptionParser.new.parse(%w(-- -a b))
    seen = []
    o.order!(%w(-a x y)) { |arg| seen << arg }
    assert_equal %w(x y), seen
  end

  def test_program_name_banner_and_version
    o = OptionParser.new
    o.program_name = "prog"
    assert_equal "Usage: prog [options]", o.banner
    assert_nil o.ver
    o.version = "1.2"
    assert_equal "prog 1.2", o.ver
    assert_equal 32, o.summary_width
    assert_equal "    ", o.summary_indent
  end

  def test_getopts
    argv = %w(-a --val 3 -b5 x y)
    result = OptionParser.new.getopts(argv, "ab:c", "val:", "lev:info", "flag")
    assert_equal({ "a" => true, "b" => "5", "c" => false, "val" => "3", "lev" => "info", "flag" => false }, result)
    assert_equal %w(x y), argv
    argv = %w(-a x -c)
    assert_equal({ "a" => true, "c" => false }, OptionParser.new.getopts(argv, "ac"))
    assert_equal %w(x -c), argv
    assert_raise(OptionParser::MissingArgument) { OptionParser.new.getopts(%w(-b), "b:") }
  end

  def test_argv_is_arguable
    assert_kind_of OptionParser::Arguable, ARGV
    assert_kind_of OptionParser, ARGV.options
    assert_same ARGV.options, ARGV.options
    out, status = run_script('p ARGV.getopts("lw", "all"); p ARGV', "-l", "--all", "f1", "-w")
    assert_equal [%({"l"=>true, "w"=>false, "all"=>true}\n["f1", "-w"]\n), 0], [out.gsub(" => ", "=>"), status]
  end

  # mnrb loads features per ractor: optparse must not touch ARGV (main ractor only) to load.
  def test_loads_and_parses_in_another_ractor
    mnrb_only
    r = Ractor.new do
      require "optparse"
      OptionParser.new { |o| o.on("-x") }.parse(%w(-x a))
    end
    assert_equal ["a"], r.take
  end

  # Runs a script on this interpreter; its combined output and exit status.
  def run_script(code, *args)
    r, w = IO.pipe
    pid = Process.spawn(RbConfig.ruby, "-roptparse", "-e", code, "--", *args, out: w, err: w)
    w.close
    out = r.read
    r.close
    [out, Process.wait2(pid)[1].exitstatus]
  end

  def test_help_and_version_print_and_exit
    code = 'o = OptionParser.new { |p| p.program_name = "tool"; p.on("-x", "X") }; o.version = ARGV.shift; o.parse!(ARGV); puts :after'
    assert_equal ["Usage: tool [options]\n    -x                               X\n", 0], run_script(code, "1.0", "--help")
    assert_equal ["Usage: tool [options]\n    -x                               X\n", 0], run_script(code, "1.0", "-h")
    assert_equal ["tool 1.0\n", 0], run_script(code, "1.0", "--version")
    assert_equal ["after\n", 0], run_script(code, "1.0", "--", "--help")
  end

  def test_version_unknown_aborts
    code = 'o = OptionParser.new { |p| p.program_name = "tool" }; o.parse!(ARGV)'
    assert_equal ["tool: version unknown\n", 1], run_script(code, "--version")
  end

  # What test-unit and rake hand to #on: a bare "--", a handler Proc among the arguments, and
  # options read from an environment variable (#environment; rake's RAKEOPT).
  def test_double_dash_switch_and_proc_handler
    seen = []
    o = OptionParser.new
    o.on("--", "Stop processing options") { seen << :stop }
    o.on("--all", "-A", "Show all", ->(v) { seen << [:all, v] })
    rest = o.parse(%w[-A x])
    assert_equal [[:all, true]], seen
    assert_equal ["x"], rest
  end

  def test_environment
    seen = []
    o = OptionParser.new { |p| p.on("-v", "--verbose") { seen << :v }; p.on("--name N") { |n| seen << n } }
    ENV["MNRB_OPTPARSE_TEST"] = "-v --name 'a b'"
    o.environment("MNRB_OPTPARSE_TEST")
    assert_equal [:v, "a b"], seen
    ENV.delete("MNRB_OPTPARSE_TEST")
    assert_nil o.environment("MNRB_OPTPARSE_TEST")
  end
end
