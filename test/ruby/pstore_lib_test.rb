# require "pstore" as CRuby's PStore (helper compat3): roots kept with Marshal in one file,
# transactions that write at their end (not on abort or an exception), read-only ones, commit and
# abort ending the block, and CRuby 3.3's errors. Expectations checked on CRuby 3.3.8 (3.1 says
# "undefined root name" where 3.3 says "undefined key", and has no keys/key?).
require "pstore"
require "tmpdir"

class PStoreLibTest < MnTest::Case
  def setup
    @dir = Dir.mktmpdir
    @path = File.join(@dir, "t.pstore")
    @store = PStore.new(@path)
  end

  def teardown
    File.delete(@path) if File.exist?(@path)
    Dir.rmdir(@dir)
  end

  def test_write_then_read
    assert_equal 42, @store.transaction { |s| assert_same @store, s; s[:a] = 1; s["b"] = [1, 2]; 42 }
    assert_equal({ a: 1, "b" => [1, 2] }, Marshal.load(File.binread(@path)))
    got = @store.transaction(true) { [@store[:a], @store.roots, @store.root?(:a), @store.key?(:zz),
                                      @store.fetch(:a), @store.fetch(:zz, 5), @store.keys] }
    assert_equal [1, [:a, "b"], true, false, 1, 5, [:a, "b"]], got
  end

  def test_errors
    assert_equal "not in transaction", assert_raise(PStore::Error) { @store[:a] }.message
    @store.transaction(true) do
      assert_equal "undefined key `zz'", assert_raise(PStore::Error) { @store.fetch(:zz) }.message
      assert_equal "in read-only transaction", assert_raise(PStore::Error) { @store[:c] = 1 }.message
      assert_equal "in read-only transaction", assert_raise(PStore::Error) { @store.delete(:a) }.message
    end
    @store.transaction do
      assert_equal "nested transaction", assert_raise(PStore::Error) { @store.transaction {} }.message
    end
    assert_equal StandardError, PStore::Error.superclass
  end

  def test_abort_commit_and_exceptions
    assert_nil @store.transaction { @store[:x] = 9; @store.abort; 1 }
    assert_nil @store.transaction { @store[:y] = 9; @store.commit; 1 }
    assert_raise(RuntimeError) { @store.transaction { @store[:q] = 1; raise "boom" } }
    assert_equal [nil, 9, nil, 9, nil], @store.transaction { [@store[:x], @store[:y], @store[:q], @store.delete(:y), @store.delete(:no)] }
    assert_equal [], @store.transaction(true) { @store.roots }
  end

  def test_no_file_for_read_only_or_unchanged
    assert_equal [], @store.transaction(true) { @store.roots }
    refute File.exist?(@path)
    @store.transaction { @store.roots }
    assert_equal 0, File.size(@path)
  end

  def test_thread_safe_store_between_threads
    store = PStore.new(@path, true)
    store.transaction { store[:n] = 0 }
    4.times.map { Thread.new { 10.times { store.transaction { store[:n] += 1 } } } }.each(&:join)
    assert_equal 40, store.transaction(true) { store[:n] }
  end
end
