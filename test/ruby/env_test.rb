# ENV as CRuby's: a writable view of the process environment with Hash's API (what CRuby 3.1 has;
# where 3.2+ differs the test says so), CRuby's TypeError / ArgumentError / Errno::EINVAL for bad
# names and values, changes seen by child processes, and reads and writes from many threads and
# ractors at once that never see a torn value (mnrb serialises getenv/setenv process-wide).

class EnvTest < MnTest::Case
  def setup
    @names = []
  end

  def teardown
    @names.each { |n| ENV.delete(n) }
  end

  # A variable name unique to this test, removed afterwards.
  def var(suffix = "")
    n = "MNRB_ENV_TEST_#{@names.size}#{suffix}"
    @names << n
    ENV.delete(n)
    n
  end

  def test_assignment_sets_and_nil_deletes
    n = var
    assert_nil ENV[n]
    assert_equal "1", (ENV[n] = "1")
    assert_equal "1", ENV[n]
    assert_equal "2", ENV.store(n, "2")
    assert_equal "2", ENV[n]
    ENV[n] = nil
    assert_nil ENV[n]
    refute ENV.key?(n)
  end

  def test_values_read_are_frozen_strings
    n = var
    ENV[n] = "v"
    assert ENV[n].frozen?
    assert ENV.to_h[n].frozen?
  end

  def test_delete_returns_the_value_or_the_blocks
    n = var
    ENV[n] = "x"
    assert_equal "x", ENV.delete(n)
    assert_nil ENV.delete(n)
    assert_equal "no #{n}", ENV.delete(n) { |k| "no #{k}" }
  end

  def test_fetch_with_default_block_and_keyerror
    n = var
    assert_equal 3, ENV.fetch(n, 3)
    assert_equal "#{n}!", ENV.fetch(n) { |k| "#{k}!" }
    e = assert_raise(KeyError) { ENV.fetch(n) }
    assert_equal "key not found: #{n.inspect}", e.message
    ENV[n] = "here"
    assert_equal "here", ENV.fetch(n, 3)
    e = assert_raise(ArgumentError) { ENV.fetch(n, 1, 2) }
    assert_equal "wrong number of arguments (given 3, expected 1..2)", e.message
  end

  def test_key_predicates
    n = var
    %i(key? include? has_key? member?).each { |m| assert_equal false, ENV.send(m, n) }
    ENV[n] = "v"
    %i(key? include? has_key? member?).each { |m| assert_equal true, ENV.send(m, n) }
  end

  def test_value_key_assoc_rassoc
    n = var
    ENV[n] = "mnrb-unique-value"
    assert_equal true, ENV.value?("mnrb-unique-value")
    assert_equal true, ENV.has_value?("mnrb-unique-value")
    assert_equal false, ENV.value?("mnrb-no-such-value")
    assert_nil ENV.value?(1)
    assert_equal n, ENV.key("mnrb-unique-value")
    assert_equal [n, "mnrb-unique-value"], ENV.assoc(n)
    assert_nil ENV.assoc(var)
    assert_equal [n, "mnrb-unique-value"], ENV.rassoc("mnrb-unique-value")
  end

  def test_keys_values_to_a_to_h_size
    n = var
    ENV[n] = "v"
    assert_include ENV.keys, n
    assert_include ENV.values, "v"
    assert_include ENV.to_a, [n, "v"]
    assert_kind_of Hash, ENV.to_h
    assert_equal "v", ENV.to_h[n]
    assert_equal "v", ENV.to_hash[n]
    assert_equal ENV.keys.size, ENV.size
    assert_equal ENV.size, ENV.length
    assert_equal false, ENV.empty?
  end

  def test_to_h_with_block
    n = var
    ENV[n] = "v"
    assert_equal "V", ENV.to_h { |k, v| [k.downcase, v.upcase] }[n.downcase]
    e = assert_raise(TypeError) { ENV.to_h { |k, v| 1 } }
    assert_equal "wrong element type Integer (expected array)", e.message
  end

  def test_each_forms
    n = var
    ENV[n] = "v"
    pairs = []
    assert_same ENV, ENV.each { |k, v| pairs << [k, v] }
    assert_include pairs, [n, "v"]
    pairs = []
    assert_same ENV, ENV.each_pair { |k, v| pairs << [k, v] }
    assert_include pairs, [n, "v"]
    keys = []
    ENV.each_key { |k| keys << k }
    assert_include keys, n
    values = []
    ENV.each_value { |v| values << v }
    assert_include values, "v"
    assert_kind_of Enumerator, ENV.each_pair
    assert_equal ENV.size, ENV.each.size
  end

  def test_each_may_change_env
    a = var
    b = var
    ENV[a] = "1"
    ENV.each { |k, _| ENV[b] = "2" if k == a }
    assert_equal "2", ENV[b]
  end

  def test_select_reject_filter_map
    n = var
    ENV[n] = "v"
    assert_equal({ n => "v" }, ENV.select { |k, _| k == n })
    assert_equal({ n => "v" }, ENV.filter { |k, _| k == n })
    assert_equal({ n => "v" }, ENV.reject { |k, _| k != n })
    assert_equal [n], ENV.filter_map { |k, _| k if k == n }
    assert_kind_of Enumerator, ENV.select
  end

  def test_delete_if_keep_if_and_bang_forms
    a = var
    b = var
    ENV[a] = "1"
    ENV[b] = "2"
    assert_same ENV, ENV.delete_if { |k, _| k == a }
    assert_nil ENV[a]
    assert_nil ENV.reject! { false }
    assert_nil ENV.select! { true }
    assert_same ENV, ENV.keep_if { true }
    assert_equal "2", ENV[b]
  end

  def test_update_and_merge_with_block
    n = var
    assert_same ENV, ENV.update(n => "x")
    assert_equal "x", ENV[n]
    ENV.merge!(n => "y") { |k, old, new| "#{k == n}#{old}#{new}" }
    assert_equal "truexy", ENV[n]
    ENV.update(n => nil)
    assert_nil ENV[n]
  end

  def test_slice_except_values_at
    a = var
    b = var
    ENV[a] = "1"
    assert_equal({ a => "1" }, ENV.slice(a, b))
    assert_equal ["1", nil], ENV.values_at(a, b)
    refute ENV.except(a).key?(a)
    assert_equal "1", ENV[a]
  end

  def test_replace_and_clear
    saved = ENV.to_h
    n = var
    begin
      assert_same ENV, ENV.replace(n => "only")
      assert_equal({ n => "only" }, ENV.to_h)
      assert_same ENV, ENV.clear
      assert_equal({}, ENV.to_h)
      assert_equal true, ENV.empty?
      assert_nil ENV.shift
    ensure
      ENV.replace(saved)
    end
    assert_equal saved, ENV.to_h
  end

  def test_replace_raises_typeerror_for_non_strings
    assert_raise(TypeError) { ENV.replace(var => "x", var => 1) }
    e = assert_raise(TypeError) { ENV.replace(1) }
    assert_equal "no implicit conversion of Integer into Hash", e.message
  end

  def test_non_string_names_and_values_raise_typeerror
    e = assert_raise(TypeError) { ENV[1] }
    assert_equal "no implicit conversion of Integer into String", e.message
    e = assert_raise(TypeError) { ENV[var] = 1 }
    assert_equal "no implicit conversion of Integer into String", e.message
    e = assert_raise(TypeError) { ENV[:X] = "1" }
    assert_equal "no implicit conversion of Symbol into String", e.message
    assert_raise(TypeError) { ENV.key?(1) }
    assert_raise(TypeError) { ENV.delete(1) }
    assert_raise(TypeError) { ENV.fetch(1) }
    assert_raise(TypeError) { ENV.update(var => 1) }
  end

  def test_to_str_names_are_accepted
    n = var
    name = Object.new
    name.define_singleton_method(:to_str) { n }
    ENV[name] = "via to_str"
    assert_equal "via to_str", ENV[n]
  end

  def test_equals_sign_in_a_name_is_einval
    e = assert_raise(Errno::EINVAL) { ENV["MNRB_A=B"] = "1" }
    assert_equal "Invalid argument - setenv(MNRB_A=B)", e.message
    e = assert_raise(Errno::EINVAL) { ENV[""] = "1" }
    assert_equal "Invalid argument - setenv()", e.message
    ENV["MNRB_A=B"] = nil   # deleting what cannot exist is no error
  end

  def test_null_bytes_are_argumenterror
    e = assert_raise(ArgumentError) { ENV["MNRB\0X"] }
    assert_equal "bad environment variable name: contains null byte", e.message
    e = assert_raise(ArgumentError) { ENV[var] = "a\0b" }
    assert_equal "bad environment variable value: contains null byte", e.message
  end

  def test_to_s_inspect
    assert_equal "ENV", ENV.to_s
    assert_equal ENV.to_h.inspect, ENV.inspect
  end

  def test_dup_freeze_clone_raise
    e = assert_raise(TypeError) { ENV.dup }
    assert_equal "Cannot dup ENV, use ENV.to_h to get a copy of ENV as a hash", e.message
    e = assert_raise(TypeError) { ENV.freeze }
    assert_equal "cannot freeze ENV", e.message
    assert_raise(TypeError) { ENV.clone(freeze: true) }
    if RUBY_VERSION >= "3.2"   # 3.1 made a copy
      e = assert_raise(TypeError) { ENV.clone }
      assert_equal "Cannot clone ENV, use ENV.to_h to get a copy of ENV as a hash", e.message
    end
  end

  def test_enumerable
    assert ENV.is_a?(Enumerable)
    assert_equal ENV.size, ENV.map { 1 }.sum
  end

  def test_children_see_changes
    n = var
    ENV[n] = "seen by child"
    assert_equal "seen by child\n", `printenv #{n}`
    assert system("test \"$#{n}\" = 'seen by child'")
    ENV.delete(n)
    refute system("printenv #{n} >/dev/null")
    r, w = IO.pipe
    ENV[n] = "spawned"
    pid = spawn("printenv", n, out: w)
    w.close
    Process.wait(pid)
    assert_equal "spawned\n", r.read
    r.close
  end

  def test_threads_write_and_read_without_torn_values
    names = Array.new(4) { var }
    threads = names.each_with_index.map do |n, t|
      Thread.new do
        bad = []
        300.times do |i|
          v = (t.to_s * (1 + i % 50))
          ENV[n] = v
          got = ENV[n]
          bad << [v, got] unless got == v
          ENV.to_h
          bad << :other unless ENV[names[(t + 1) % 4]].nil? || ENV[names[(t + 1) % 4]].delete(((t + 1) % 4).to_s).empty?
        end
        bad
      end
    end
    assert_equal [[], [], [], []], threads.map(&:value)
  end

  def test_ractors_share_the_process_environment
    n = var
    ENV[n] = "from main"
    r = Ractor.new(n) do |name|
      seen = ENV[name]
      200.times { |i| ENV[name + "_R"] = "x" * (i % 40 + 1); ENV.to_h }
      ENV[name + "_R"] = "set by ractor"
      seen
    end
    @names << n + "_R"
    m = var
    200.times { |i| ENV[m] = "y" * (i % 40 + 1); ENV[n + "_R"] }
    assert_equal "from main", r.take
    assert_equal "set by ractor", ENV[n + "_R"]
  end

  # CRuby's ENV is an Object with singleton methods, not an instance of a class of its own
  # (mnrb's was MnrbEnv, a top-level constant CRuby does not have).
  def test_env_is_an_object_with_singleton_methods
    assert_equal Object, ENV.class
    assert_equal "ENV", ENV.to_s
    assert_include ENV.singleton_methods, :fetch
    assert_include ENV.singleton_class.ancestors, Enumerable
    assert_equal false, ENV.respond_to?(:_get)
    assert_equal false, Object.const_defined?(:MnrbEnv)
  end
end
