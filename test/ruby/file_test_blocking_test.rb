# File's path tests (exist?, file?, directory?, size, size?, zero?/empty?, symlink?, pipe?, socket?)
# as CRuby's, and each stats the path as a blocking call without the GVL, as CRuby does: stat(2) on
# a mount whose server is gone can wait for minutes, and other threads and signals must go on (issue
# 18). The values are checked on CRuby 3.1; the blocking-call count is mnrb's (GVLTools::Stats).
require "tmpdir"

class FileTestBlockingTest < MnTest::Case
  def test_path_tests_answer_as_cruby
    Dir.mktmpdir("ftest") do |dir|
      file = File.join(dir, "f")
      File.write(file, "abc")
      empty = File.join(dir, "e")
      File.write(empty, "")
      link = File.join(dir, "l")
      File.symlink(file, link)
      assert_equal [true, false], [File.exist?(file), File.exist?(File.join(dir, "none"))]
      assert_equal [true, false, true], [File.file?(file), File.file?(dir), File.directory?(dir)]
      assert_equal [3, 3, nil, nil], [File.size(file), File.size?(file), File.size?(empty), File.size?(File.join(dir, "none"))]
      assert_equal [true, true, false], [File.zero?(empty), File.empty?(empty), File.zero?(file)]
      assert_equal [true, false], [File.symlink?(link), File.symlink?(file)]
      assert_equal [false, false], [File.pipe?(file), File.socket?(file)]
      File.open(file) { |f| assert_equal [true, 3], [File.file?(f), File.size(f)] }
      assert_equal true, FileTest.exist?(file)
    end
  end

  def test_bad_paths_raise_as_cruby
    assert_raise(Errno::ENOENT) { File.size("/nonexistent/mnrb-file-test") }
    e = assert_raise(TypeError) { File.exist?(nil) }
    assert_equal "no implicit conversion of nil into String", e.message
    e = assert_raise(ArgumentError) { File.exist?("a\0b") }
    assert_equal "path name contains null byte", e.message
  end

  def test_each_test_is_a_blocking_call
    mnrb_only
    before = GVLTools::Stats.runtime[:blocking_calls]
    path = __FILE__
    File.exist?(path); File.file?(path); File.directory?(path); File.size(path)
    assert_equal 4, GVLTools::Stats.runtime[:blocking_calls] - before
  end
end
