# Writes to a File or to a piped STDOUT are buffered in user space, as in CRuby (issue 21: a loop of
# small writes made one write(2) each): what must see the bytes sees them written out first.

class IOWriteBufferTest < MnTest::Case
  def setup
    @dir = "/tmp/mnrb-wbuf-#{Process.pid}-#{rand(1_000_000)}"
    Dir.mkdir(@dir)
    @path = "#{@dir}/out"
  end

  def teardown
    Dir.children(@dir).each { |f| File.delete("#{@dir}/#{f}") }
    Dir.rmdir(@dir)
  end

  def test_writes_to_a_file_wait_in_the_buffer_until_flush
    File.open(@path, "w") do |f|
      f.write "abc"
      f.print "d"
      f.puts "e"
      assert_equal "", File.read(@path)
      assert_same f, f.flush
      assert_equal "abcde\n", File.read(@path)
    end
  end

  def test_close_writes_the_buffer_out
    f = File.open(@path, "w")
    f << "closing"
    f.close
    assert_equal "closing", File.read(@path)
  end

  def test_writes_larger_than_the_buffer_keep_their_order
    big = "x" * 20_000
    File.open(@path, "w") do |f|
      f.write "a"
      f.write big
      f.write "b"
      300.times { |i| f.write "#{i}," }
    end
    assert_equal "a" + big + "b" + 300.times.map { |i| "#{i}," }.join, File.read(@path)
  end

  def test_pos_seek_size_and_reads_see_the_buffered_bytes
    File.open(@path, "w+") do |f|
      f.write "hello"
      assert_equal 5, f.pos
      assert_equal 5, f.tell
      assert_equal 5, f.size
      f.rewind
      assert_equal "hello", f.read
      f.write " world"
      f.seek(0)
      assert_equal "hello world", f.read
    end
  end

  def test_once_sync_a_write_goes_out_at_once_after_what_was_buffered
    File.open(@path, "w") do |f|
      f.write "a"
      f.sync = true
      f.write "b"
      assert_equal "ab", File.read(@path)
      f.write "c"
      assert_equal "abc", File.read(@path)
      assert_equal true, f.sync
    end
  end

  def test_a_dup_and_flock_see_the_buffered_bytes
    File.open(@path, "w") do |f|
      f.write "one"
      f.dup.close
      assert_equal "one", File.read(@path)
      f.write "two"
      f.flock(File::LOCK_EX)
      assert_equal "onetwo", File.read(@path)
    end
  end

  def test_stderr_is_sync_and_stdout_is_not
    assert_equal true, $stderr.sync
    assert_equal false, STDOUT.sync
  end

  def test_threads_writing_lines_to_one_file_write_every_line_whole
    File.open(@path, "w") do |f|
      4.times.map { |t| Thread.new { 500.times { |i| f.puts "thread #{t} line #{i}" } } }.each(&:join)
    end
    lines = File.readlines(@path)
    assert_equal 2000, lines.size
    4.times { |t| assert_equal 500.times.map { |i| "thread #{t} line #{i}\n" }, lines.grep(/\Athread #{t} /) }
  end

  # ---- whole programs: the end, a spawn, a signal ----

  def run_child(code)
    r, w = IO.pipe
    pid = spawn("/proc/self/exe", "-e", code, out: w)
    w.close
    out = r.read
    _, st = Process.wait2(pid)
    [out, st]
  ensure
    r&.close
  end

  def test_the_buffers_are_written_at_the_end_after_the_at_exit_handlers
    out, st = run_child("at_exit { puts %(last) }; File.open(#{@path.inspect}, %(w)).write(%(never closed)); print %(first, )")
    assert_equal "first, last\n", out
    assert_equal 0, st.exitstatus
    assert_equal "never closed", File.read(@path)
  end

  def test_a_spawned_child_prints_after_what_was_printed_before
    out, _ = run_child("print %(before ); system(%(echo), %(child)); print %(after)")
    assert_equal "before child\nafter", out
  end

  def test_an_uncaught_signal_still_writes_stdout_out
    out, st = run_child("print %(printed); Process.kill(:TERM, $$); sleep 5")
    assert_equal "printed", out
    assert_equal 15, st.termsig
  end

  def test_p_flushes_what_it_shows
    out, st = run_child("print %(printed ); p 1; Process.kill(:KILL, $$)")
    assert_equal "printed 1\n", out
    assert_equal 9, st.termsig
  end

  def test_exit_bang_drops_the_buffer
    out, st = run_child("print %(dropped); exit!(3)")
    assert_equal "", out
    assert_equal 3, st.exitstatus
  end

  # A signal that lands as a flush's write(2) returns ends the process, whose last flush must not
  # write those bytes again (each run: "go" exactly once, whatever moment the TERM lands).
  def test_a_signal_as_a_flush_returns_does_not_write_twice
    30.times do
      rest = nil
      IO.popen([RbConfig.ruby, "-e", '$stdout.puts "go"; $stdout.flush; loop { }']) do |io|
        assert_equal "go\n", io.gets
        Process.kill(:TERM, io.pid)
        rest = io.read
      end
      assert_equal "", rest
      assert_equal 15, $?.termsig
    end
  end
end
