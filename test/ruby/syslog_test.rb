# require "syslog" and "syslog/logger" as CRuby's: the log's state (opened?, ident, options,
# facility, mask) through open / reopen / close, CRuby's errors, the constants and their modules,
# LOG_MASK / LOG_UPTO, and what reaches syslog(3): with LOG_PERROR glibc copies each message to
# stderr ("ident: message"), which a child interpreter's output shows. Expectations printed by
# CRuby 3.3.8 and Debian's ruby 3.1.
require "syslog"
require "syslog/logger"
require "rbconfig"

class SyslogTest < MnTest::Case
  def teardown
    Syslog.close if Syslog.opened?
  end

  def child_stderr(code)
    IO.popen([RbConfig.ruby, "-e", code], err: [:child, :out], &:read)
  end

  def test_closed_state
    assert_equal [false, nil, nil, nil, nil], [Syslog.opened?, Syslog.ident, Syslog.options, Syslog.facility, Syslog.mask]
    assert_equal "syslog not opened", assert_raise(RuntimeError) { Syslog.close }.message
    assert_equal "must open syslog before write", assert_raise(RuntimeError) { Syslog.info("x") }.message
    assert_equal "must open syslog before write", assert_raise(RuntimeError) { Syslog.log(Syslog::LOG_ERR, "x") }.message
    assert_equal "<#Syslog: opened=false>", Syslog.inspect
  end

  def test_open_block_reports_and_closes
    seen = nil
    ret = Syslog.open("tst", Syslog::LOG_PERROR | Syslog::LOG_NDELAY, Syslog::LOG_LOCAL0) do |s|
      assert_equal "syslog already open", assert_raise(RuntimeError) { Syslog.open }.message
      seen = [s, s.opened?, s.ident, s.options, s.facility, s.mask, s.inspect]
      :block_value
    end
    assert_equal Syslog, ret                       # the module, not the block's value
    assert_equal [Syslog, true, "tst", 40, 128, 255, '<#Syslog: opened=true, ident="tst", options=40, facility=128, mask=255>'], seen
    assert_equal false, Syslog.opened?
  end

  def test_defaults_mask_and_reopen
    Syslog.open("x")
    assert_equal ["x", 3, 8], [Syslog.ident, Syslog.options, Syslog.facility]
    Syslog.mask = Syslog.LOG_UPTO(Syslog::LOG_ERR)
    assert_equal 15, Syslog.mask
    Syslog.reopen("y", Syslog::LOG_PID)
    assert_equal ["y", 1, 15], [Syslog.ident, Syslog.options, Syslog.mask]
    Syslog.close
    assert_equal [nil, nil, nil], [Syslog.ident, Syslog.options, Syslog.facility]
  end

  def test_constants
    assert_equal [15, 64, 1, 8, 128, 6, 24, 2], [Syslog.LOG_UPTO(Syslog::LOG_ERR), Syslog.LOG_MASK(Syslog::LOG_INFO), Syslog::LOG_PID,
      Syslog::LOG_USER, Syslog::LOG_LOCAL0, Syslog::Level::LOG_INFO, Syslog::Facility::LOG_DAEMON, Syslog::Option::LOG_CONS]
    assert_equal true, Syslog.ancestors.include?(Syslog::Constants)
    assert_equal Syslog, Syslog.instance
  end

  def test_messages_reach_syslog
    out = child_stderr(<<~'R')
      require "syslog"
      Syslog.open("tst", Syslog::LOG_PERROR) do |s|
        s.info("hello %d", 5)
        s.log(Syslog::LOG_WARNING, "w %s", "x")
        s.err("100%% sure")
        s.mask = Syslog.LOG_UPTO(Syslog::LOG_ERR)
        s.info("masked out")
        s.crit("kept")
      end
    R
    assert_equal "tst: hello 5\ntst: w x\ntst: 100% sure\ntst: kept\n", out
  end

  def test_logger
    out = child_stderr(<<~'R')
      require "syslog"
      require "syslog/logger"
      Syslog.open("pre")
      begin
        Syslog::Logger.new("first")               # opens the log: it is open already
      rescue RuntimeError => e
        p e.message
      end
      Syslog.close
      l = Syslog::Logger.new("first")
      Syslog::Logger.new("second")                # the log is the first logger's
      Syslog.reopen("lg", Syslog::LOG_PERROR)     # the same log, now copied to stderr
      p [l.level, l.facility, l.info?, Syslog::Logger::LEVEL_MAP[Logger::WARN] == Syslog::LOG_NOTICE]
      l.info("  padded  ")
      l.warn { "from block" }
      l.level = Logger::ERROR
      l.info("dropped")
      l.error("kept")
    R
    assert_equal "\"syslog already open\"\n[0, 8, true, true]\nlg: padded\nlg: from block\nlg: kept\n", out
  end
end
