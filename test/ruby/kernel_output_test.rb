# Kernel#puts, print, p and printf write to $stdout, whatever it holds, as CRuby's do (tests and
# tools capture output by assigning it).

class KernelOutputTest < MnTest::Case
  def test_each_writes_to_a_reassigned_stdout
    out = capture_stdout do
      puts "a", ["b", ["c"]]
      print "d", 1, "\n"
      p :e, [1]
      printf("%03d\n", 7)
    end
    assert_equal "a\nb\nc\nd1\n:e\n[1]\n007\n", out
  end

  def test_return_values_are_cruby_s
    capture_stdout do
      assert_nil puts("x")
      assert_nil print("x")
      assert_nil p
      assert_equal 1, p(1)
      assert_equal [1, 2], p(1, 2)
      assert_nil printf("x")
    end
  end

  def test_a_stringio_as_stdout
    require "stringio"
    s = StringIO.new
    saved = $stdout
    $stdout = s
    begin
      puts "a"
      p :b
    ensure
      $stdout = saved
    end
    assert_equal "a\n:b\n", s.string
  end

  def test_threads_write_to_the_stdout_they_see
    out = capture_stdout { 4.times.map { |i| Thread.new { puts "t#{i}" } }.each(&:join) }
    assert_equal %w(t0 t1 t2 t3), out.split("\n").sort
  end
end
