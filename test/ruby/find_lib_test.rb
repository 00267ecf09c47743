# require "find" as CRuby's: Find.find walks each tree depth first, a directory before its entries
# (sorted), without following symlinks; Find.prune skips a directory's contents; a missing start
# raises Errno::ENOENT.
require "find"

class FindLibTest < MnTest::Case
  def setup
    @root = "/tmp/mnrb-find-#{Process.pid}"
    %w(b/c a skip/x).each { |d| mkdir_p("#{@root}/#{d}") }
    %w(z.txt b/c/y.rb a/q.rb skip/x/w.rb).each { |f| File.write("#{@root}/#{f}", "1") }
    File.symlink("#{@root}/b", "#{@root}/lnk")
  end

  def teardown
    Find.find(@root).to_a.reverse_each do |f|
      File.directory?(f) && !File.symlink?(f) ? Dir.rmdir(f) : File.unlink(f)
    end
  end

  def mkdir_p(dir)
    return if Dir.exist?(dir)
    mkdir_p(File.dirname(dir))
    Dir.mkdir(dir)
  end

  def rel(paths) = paths.map { |f| f.delete_prefix(@root) }

  def test_walks_depth_first_in_sorted_order
    assert_equal ["", "/a", "/a/q.rb", "/b", "/b/c", "/b/c/y.rb", "/lnk", "/skip", "/skip/x",
                  "/skip/x/w.rb", "/z.txt"], rel(Find.find(@root).to_a)
  end

  def test_prune_skips_a_directory
    seen = []
    Find.find(@root) do |f|
      Find.prune if File.basename(f) == "skip" || File.basename(f) == "b"
      seen << f
    end
    assert_equal ["", "/a", "/a/q.rb", "/lnk", "/z.txt"], rel(seen)
  end

  def test_several_starts_and_a_file
    assert_equal ["/z.txt", "/a", "/a/q.rb"], rel(Find.find("#{@root}/z.txt", "#{@root}/a").to_a)
  end

  def test_missing_start_raises
    assert_raise(Errno::ENOENT) { Find.find("#{@root}/nope") { } }
  end

  def test_relative_start_keeps_its_prefix
    files = Dir.chdir(@root) { Find.find(".").select { |f| f.end_with?(".rb") } }
    assert_equal ["./a/q.rb", "./b/c/y.rb", "./skip/x/w.rb"], files
  end

  def test_returns_nil_with_a_block
    assert_nil Find.find("#{@root}/z.txt") { }
  end

  def test_loads_and_works_in_another_ractor
    mnrb_only
    r = Ractor.new(@root) do |root|
      require "find"
      Find.find(root).count { |f| f.end_with?(".rb") }
    end
    assert_equal 3, r.take
  end
end
