# SystemCallError and Errno (CRuby 3.1 semantics).

class ErrnoTest < MnTest::Case
  def test_errno_classes_carry_their_number_and_message
    e = Errno::ENOENT.new("path")
    assert_equal "No such file or directory - path", e.message
    assert_equal Errno::ENOENT::Errno, e.errno
    assert_kind_of SystemCallError, e
    assert_kind_of StandardError, e
    assert_equal "Broken pipe", Errno::EPIPE.new.message
  end

  def test_system_call_error_new_with_a_number_picks_the_errno_class
    e = SystemCallError.new("x", Errno::ECONNREFUSED::Errno)
    assert_equal Errno::ECONNREFUSED, e.class
    assert_equal Errno::ECONNREFUSED::Errno, e.errno
  end

  def test_ewouldblock_is_eagain
    assert_same Errno::EAGAIN, Errno::EWOULDBLOCK
  end

  def test_opening_a_missing_file_raises_enoent
    e = assert_raise(Errno::ENOENT) { File.open("/nonexistent/mnrb/file") }
    assert_equal Errno::ENOENT::Errno, e.errno
  end

  # mnrb makes the classes when first named; what a program sees is CRuby's.
  def test_errno_lists_and_answers_for_every_class
    names = Errno.constants
    assert_include names, :ENOENT
    assert_include names, :EWOULDBLOCK
    assert names.size > 80, names.size.to_s
    names.each do |n|
      c = Errno.const_get(n)
      assert_kind_of Class, c
      assert c < SystemCallError, n.to_s
    end
    assert Errno.const_defined?(:ECONNRESET)
    assert Errno.const_defined?("ENOTSUP")
    assert !Errno.const_defined?(:EFOO)
  end

  def test_an_unknown_errno_name_is_a_name_error
    e = assert_raise(NameError) { Errno::EFOO }
    assert_equal "uninitialized constant Errno::EFOO", e.message.lines.first.chomp
  end

  def test_errno_classes_in_a_ractor
    r = Ractor.new do
      begin
        File.open("/nonexistent/mnrb/file")
      rescue Errno::ENOENT => e
        [e.class.name, e.errno, Errno::EPIPE.new.message, Errno::EDEADLOCK.equal?(Errno::EDEADLK)]
      end
    end
    assert_equal ["Errno::ENOENT", Errno::ENOENT::Errno, "Broken pipe", true], r.take
  end

  def test_errors_can_be_rescued_as_system_call_error
    r = begin
      File.open("/nonexistent/mnrb/file")
    rescue SystemCallError => e
      e.class
    end
    assert_equal Errno::ENOENT, r
  end
end

class BlockingFileTest < MnTest::Case
  # Regular files cannot wait in epoll: their reads run as blocking calls without the GVL, so the
  # other threads go on (and the data is right).
  def test_file_reads_and_writes_beside_other_threads
    path = "/tmp/mnrb-file-test-#{Process.pid}-#{rand(1_000_000)}"
    data = (0...20000).map { |i| "line #{i}\n" }.join
    File.open(path, "w") { |f| f.write data }
    ticks = 0
    ticker = Thread.new { loop { ticks += 1; sleep 0.001 } }
    readers = 4.times.map { Thread.new { File.open(path) { |f| f.read } } }
    readers.each { |t| assert_equal data, t.value }
    lines = 0
    File.open(path) { |f| f.each_line { lines += 1 } }
    assert_equal 20000, lines
    ticker.kill
    ticker.join
    File.unlink(path)
  end
end

class FlockTest < MnTest::Case
  # File#flock (CRuby 3.1): LOCK_NB answers false while another holder has the lock; a blocking
  # LOCK_EX waits without stopping the other threads, and gets the lock once it is released.
  def test_flock_waits_for_the_holder_without_stopping_other_threads
    path = "/tmp/mnrb-flock-#{Process.pid}-#{rand(1_000_000)}"
    File.open(path, "w") {}
    holder = File.open(path)
    assert_equal 0, holder.flock(File::LOCK_EX)
    other = File.open(path)                      # another open file description: flock conflicts
    assert_equal false, other.flock(File::LOCK_EX | File::LOCK_NB)
    ticks = 0
    waiter = Thread.new { other.flock(File::LOCK_EX); :locked }
    wait_until("the waiter to block") { waiter.status == "sleep" }
    3.times { Thread.pass; ticks += 1 }
    assert_equal 3, ticks
    holder.flock(File::LOCK_UN)
    assert_equal :locked, waiter.value
    holder.close
    other.close
    File.unlink(path)
  end
end
