# require "logger" as CRuby's: the default line "I, [time #pid]  INFO -- prog: msg", levels as
# Integer/Symbol/String (ArgumentError "invalid log level: x"), progname from the argument or
# the logger, messages from blocks (not evaluated below the level), exceptions and other objects
# as messages, a custom formatter and datetime_format, <<, logging to a path with CRuby's header,
# and nil as a device. Expected values are CRuby 3.1's.
require "logger"
require "stringio"
require "tmpdir"

class StdlibLoggerTest < MnTest::Case
  def logger(**opts)
    @io = StringIO.new
    Logger.new(@io, **opts)
  end

  # Lines with the time and pid replaced, so they compare.
  def lines
    @io.string.gsub(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}/, "TIME").gsub(/ #\d+\]/, " #PID]").lines
  end

  def test_default_format
    l = logger(progname: "prog")
    l.info("hello")
    assert_equal ["I, [TIME #PID]  INFO -- prog: hello\n"], lines
    assert_include @io.string, " ##{Process.pid}]"
  end

  def test_each_severity_label
    l = logger
    l.debug("d"); l.info("i"); l.warn("w"); l.error("e"); l.fatal("f"); l.unknown("u")
    assert_equal ["D, [TIME #PID] DEBUG -- : d\n", "I, [TIME #PID]  INFO -- : i\n",
                  "W, [TIME #PID]  WARN -- : w\n", "E, [TIME #PID] ERROR -- : e\n",
                  "F, [TIME #PID] FATAL -- : f\n", "A, [TIME #PID]   ANY -- : u\n"], lines
  end

  def test_block_message_and_progname_argument
    l = logger(progname: "prog")
    l.debug { "lazy" }
    l.warn("other") { "blockmsg" }
    l.add(Logger::INFO, "m", "p2")
    assert_equal ["D, [TIME #PID] DEBUG -- prog: lazy\n", "W, [TIME #PID]  WARN -- other: blockmsg\n",
                  "I, [TIME #PID]  INFO -- p2: m\n"], lines
  end

  def test_level_filters_and_skips_blocks
    l = logger(level: :warn)
    called = false
    assert_equal true, l.info { called = true }
    refute called
    l.warn("shown")
    assert_equal 1, lines.size
    refute l.info?
    assert l.warn?
    assert l.error?
  end

  def test_level_forms
    l = logger
    l.level = "INFO"
    assert_equal Logger::INFO, l.level
    l.level = :error
    assert_equal 3, l.level
    l.level = 4
    assert_equal Logger::FATAL, l.level
    l.debug!
    assert_equal 0, l.level
    e = assert_raise(ArgumentError) { l.level = :nope }
    assert_equal "invalid log level: nope", e.message
  end

  def test_non_string_messages
    l = logger
    l.error(RuntimeError.new("boom"))
    l.add(Logger::FATAL, [1, 2])
    l.add(nil, "unk")
    assert_equal ["E, [TIME #PID] ERROR -- : boom (RuntimeError)\n", "\n",
                  "F, [TIME #PID] FATAL -- : [1, 2]\n", "A, [TIME #PID]   ANY -- : unk\n"], lines
  end

  def test_formatter_and_datetime_format
    l = logger(progname: "p")
    l.datetime_format = "%Y"
    l.info("x")
    assert_equal "I, [#{Time.now.year} ##{Process.pid}]  INFO -- p: x\n", @io.string
    l.formatter = proc { |sev, time, prog, msg| "#{sev}|#{time.class}|#{prog}|#{msg}\n" }
    l.error("fmt")
    l << "raw\n"
    assert_equal ["ERROR|Time|p|fmt\n", "raw\n"], @io.string.lines.last(2)
  end

  def test_formatter_class
    line = Logger::Formatter.new.call("WARN", Time.utc(2024, 1, 2, 3, 4, 5, 60), "prog", "m")
    assert_equal "W, [2024-01-02T03:04:05.000060 ##{Process.pid}]  WARN -- prog: m\n", line
  end

  def test_logging_to_a_path
    Dir.mktmpdir do |dir|
      file = File.join(dir, "app.log")
      l = Logger.new(file)
      l.info("one")
      l.close
      l = Logger.new(file)
      l.info("two")
      l.close
      text = File.read(file).lines
      assert_equal 3, text.size
      assert text[0].start_with?("# Logfile created on "), text[0]
      assert text[1].end_with?("INFO -- : one\n")
      assert text[2].end_with?("INFO -- : two\n")
    end
  end

  def test_nil_device
    assert_equal true, Logger.new(nil).info("x")
  end
end
