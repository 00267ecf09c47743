# IO#inspect and File#inspect as CRuby prints them (3.1 agrees): "#<File:/path>", the standard
# streams as "#<IO:<STDIN>>" (their dups too), other IOs by descriptor ("#<IO:fd 5>"), and a closed
# one with " (closed)" after its path or "(closed)" alone; in a ractor as in the main one (where CRuby refuses the constant STDERR: $stderr is read).
class IOInspectTest < MnTest::Case
  def test_the_standard_streams
    assert_equal ["#<IO:<STDIN>>", "#<IO:<STDOUT>>", "#<IO:<STDERR>>"], [$stdin, $stdout, $stderr].map(&:inspect)
    assert_equal "#<IO:<STDIN>>", STDIN.inspect
    d = STDERR.dup
    assert_equal "#<IO:<STDERR>>", d.inspect
    d.close
    assert_equal "#<IO:<STDERR> (closed)>", d.inspect
  end

  def test_a_file_shows_its_path
    File.open(File::NULL) do |f|
      assert_equal "#<File:#{File::NULL}>", f.inspect
      assert_equal "#<File:#{File::NULL}>", [f].inspect[1..-2]
      f.close
      assert_equal "#<File:#{File::NULL} (closed)>", f.inspect
    end
    assert_equal true, File.new(File::NULL).to_s.start_with?("#<File:0x")   # to_s stays Object's
  end

  def test_other_ios_show_their_descriptor
    r, w = IO.pipe
    assert_equal ["#<IO:fd #{r.fileno}>", "#<IO:fd #{w.fileno}>"], [r.inspect, w.inspect]
    d = w.dup
    assert_equal "#<IO:fd #{d.fileno}>", d.inspect
    [r, w, d].each(&:close)
    assert_equal "#<IO:(closed)>", r.inspect
  end

  def test_a_subclass_s_name
    klass = Class.new(File)
    Object.const_set(:IOInspectTestFile, klass) unless defined?(IOInspectTestFile)
    f = IOInspectTestFile.open(File::NULL)
    assert_equal "#<IOInspectTestFile:#{File::NULL}>", f.inspect
    f.close
  end

  def test_in_a_ractor
    r = Ractor.new { [$stdin.inspect, $stdout.inspect, $stderr.dup.inspect, File.open(File::NULL, &:inspect)] }
    got = Ractor.method_defined?(:value) ? r.value : r.take
    assert_equal ["#<IO:<STDIN>>", "#<IO:<STDOUT>>", "#<IO:<STDERR>>", "#<File:#{File::NULL}>"], got
  end
end
