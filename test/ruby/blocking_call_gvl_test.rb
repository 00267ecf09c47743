# Blocking calls that return at once keep the GVL (issue 21: as cheap as CRuby's); one that really
# blocks still lets the ractor's other threads run, whenever they need to.

class BlockingCallGVLTest < MnTest::Case
  def setup
    @dir = "/tmp/mnrb-blocking-gvl-#{Process.pid}-#{rand(1_000_000)}"
    Dir.mkdir(@dir)
  end

  def teardown
    Dir.children(@dir).each { |f| File.delete("#{@dir}/#{f}") }
    Dir.rmdir(@dir)
  end

  # No GVL hand-off at all: the thread's GVL acquisitions do not move (before, one per call).
  def test_reads_and_writes_that_return_at_once_keep_the_gvl
    skip "GVLTools is mnrb's" unless defined?(GVLTools)
    GVLTools::Stats.enable
    File.open("/dev/zero") do |zero|
      File.open("/dev/null", "w") do |null|
        File.open("#{@dir}/file", "w+") do |file|
          before = GVLTools::Stats.thread[:acquisitions]
          calls = GVLTools::Stats.runtime[:blocking_calls]
          100.times do
            null.syswrite(zero.sysread(10))      # (write would collect them in a buffer)
            file.syswrite("0123456789")
          end
          file.rewind
          assert_equal "0123456789" * 100, file.read
          assert_equal before, GVLTools::Stats.thread[:acquisitions]
          assert GVLTools::Stats.runtime[:blocking_calls] >= calls + 300
        end
      end
    end
  ensure
    GVLTools::Stats.disable if defined?(GVLTools)
  end

  # The main thread blocks in open(2) of a FIFO while the only other thread sleeps: nobody needs the
  # GVL when the call starts. The sleeper's wake-up takes it back, and the sleeper opens the other end.
  def test_a_thread_woken_while_another_is_in_a_blocking_call_runs
    fifo = "#{@dir}/fifo"
    system("mkfifo", fifo) or skip "mkfifo failed"
    writer = Thread.new do
      sleep 0.05
      File.open(fifo, "w") { |f| f.write "from the sleeper" }
    end
    wait_until("the writer to sleep") { writer.status == "sleep" }
    assert_equal "from the sleeper", File.open(fifo, "r") { |f| f.read }
    writer.join
  end

  # A file read keeps working across threads: each thread's calls keep the GVL in turn.
  def test_threads_reading_one_file_each_get_every_byte
    path = "#{@dir}/data"
    File.write(path, (0...256).map(&:chr).join * 64)
    sums = 4.times.map do
      Thread.new do
        File.open(path, "rb") do |f|
          total = 0
          while (s = f.read(100))
            total += s.bytes.sum
          end
          total
        end
      end
    end.map(&:value)
    assert_equal [(0...256).sum * 64] * 4, sums
  end
end
