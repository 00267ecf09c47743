# Kernel#require, require_relative, load, $LOAD_PATH and $LOADED_FEATURES (CRuby 3.1's Kernel docs
# and behaviour). The files they load are in fixtures/require/lib, each used by one test. Built-in
# features counting as loaded is mnrb's (CRuby loads thread and monitor the first time).

class RequireTest < MnTest::Case
  LIB = File.join(__dir__, "fixtures", "require", "lib")

  def setup
    $LOAD_PATH.unshift(LIB)
  end

  def teardown
    $LOAD_PATH.delete(LIB)
  end

  def fixture(name)
    File.realpath(File.join(LIB, name))
  end

  def test_require_searches_load_path_and_loads_once
    assert_equal true, require("mnrb_req_counted")
    assert_equal false, require("mnrb_req_counted")
    assert_equal false, require("mnrb_req_counted.rb")
    assert_equal 1, $mnrb_req_counted
    assert_include $LOADED_FEATURES, fixture("mnrb_req_counted.rb")
  end

  def test_the_same_file_by_absolute_and_relative_paths_loads_once
    path = fixture("mnrb_req_ext.rb")
    assert_equal true, require(path)
    assert_equal false, require(path[0, path.size - 3])
    assert_equal false, require("mnrb_req_ext")
    assert_equal 1, $mnrb_req_ext
  end

  def test_a_symlink_and_its_target_are_one_feature
    assert_equal true, require("mnrb_req_symlink")
    assert_equal false, require("mnrb_req_symlinked")
    assert_equal 1, $mnrb_req_symlinked
  end

  def test_file_and_dir_in_a_required_file_are_real_paths
    require "mnrb_req_path"
    assert_equal [fixture("mnrb_req_path.rb"), File.realpath(LIB)], $mnrb_req_path
  end

  def test_require_relative_is_relative_to_the_calling_file
    require "mnrb_req_nested/inner"
    dir = File.realpath(File.join(LIB, "mnrb_req_nested"))
    assert_equal [File.join(dir, "inner.rb"), dir], $mnrb_req_inner
    assert_equal File.join(dir, "helper.rb"), $mnrb_req_helper
  end

  def test_require_relative_from_this_file
    assert_equal false, require_relative("fixtures/require/lib/mnrb_req_nested/helper") if $mnrb_req_helper
    e = assert_raise(LoadError) { require_relative "fixtures/require/no_such_file" }
    assert_equal "cannot load such file -- #{File.join(__dir__, 'fixtures/require/no_such_file')}", e.message
  end

  def test_dir_is_the_directory_of_this_file
    assert_equal File.realpath(File.dirname(__FILE__)), __dir__
  end

  def test_unknown_feature_raises_load_error_with_path
    e = assert_raise(LoadError) { require "mnrb_no_such_feature/at_all" }
    assert_equal "cannot load such file -- mnrb_no_such_feature/at_all", e.message
    assert_equal "mnrb_no_such_feature/at_all", e.path
    assert_kind_of ScriptError, e
  end

  def test_load_error_backtrace_leads_to_the_require_call
    line = __LINE__ + 1
    e = assert_raise(LoadError) { require "mnrb_no_such_feature" }
    first_here = e.backtrace.find { |l| l.start_with?(__FILE__) }
    assert first_here.start_with?("#{__FILE__}:#{line}:"), e.backtrace.inspect
    refute e.backtrace.any? { |l| l.include?("cannot_load") || l.include?("find_feature") }, e.backtrace.inspect
  end

  def test_require_converts_its_argument_as_cruby
    assert_equal "no implicit conversion of nil into String", assert_raise(TypeError) { require nil }.message
    assert_equal "no implicit conversion of Integer into String", assert_raise(TypeError) { require 3 }.message
    path = Object.new
    def path.to_path
      "mnrb_no_such_feature_by_to_path"
    end
    assert_equal "mnrb_no_such_feature_by_to_path", assert_raise(LoadError) { require path }.path
  end

  def test_syntax_error_names_file_and_line
    e = assert_raise(SyntaxError) { require "mnrb_req_syntax" }
    assert e.message.start_with?(fixture("mnrb_req_syntax.rb") + ":"), e.message
    line = e.message.split(":")[1].to_i
    assert line >= 3, "the error is at the end of the file, got line #{line}"
    refute $LOADED_FEATURES.include?(fixture("mnrb_req_syntax.rb"))
  end

  def test_exception_in_required_file_propagates_and_leaves_it_unloaded
    e = assert_raise(ArgumentError) { require "mnrb_req_raise" }
    assert_equal "first run fails", e.message
    at = e.backtrace.index { |l| l.start_with?(fixture("mnrb_req_raise.rb") + ":4") }
    assert at, e.backtrace.inspect
    # the file's top level, then the require call here: no frame of mnrb's loader in between
    assert e.backtrace[at].end_with?("<top (required)>'"), e.backtrace.inspect
    here = e.backtrace.index { |l| l.start_with?("#{__FILE__}:") }
    assert here && here > at, e.backtrace.inspect
    assert e.backtrace[(at + 1)...here].all? { |l| l.end_with?("require'") }, e.backtrace.inspect
    refute $LOADED_FEATURES.include?(fixture("mnrb_req_raise.rb"))
    assert_equal true, require("mnrb_req_raise")
    assert_equal 2, $mnrb_req_raise_runs
  end

  def test_circular_require_returns_false_inside_the_cycle
    assert_equal true, require("mnrb_req_circ_a")
    assert_equal [:a_start, :b_start, false, :b_end, true, :a_end], $mnrb_req_circ
  end

  def test_deleting_from_loaded_features_allows_a_reload
    load_count = fixture("mnrb_req_load_count.rb")
    assert_equal true, require(load_count)
    $LOADED_FEATURES.delete(load_count)
    assert_equal true, require(load_count)
    assert_equal 2, $mnrb_req_load_count
  end

  def test_load_runs_every_time_and_is_not_a_feature
    before = $mnrb_req_defs_self
    assert_equal true, load(File.join(LIB, "mnrb_req_defs.rb"))
    assert_equal :method, mnrb_req_defs_method
    assert_equal :const, MNRB_REQ_DEFS_CONST
    refute $LOADED_FEATURES.include?(fixture("mnrb_req_defs.rb"))
    assert_nil before
  end

  def test_load_searches_load_path_without_adding_an_extension
    $mnrb_req_counted_before = $mnrb_req_counted.to_i
    assert_equal true, load("mnrb_req_counted.rb")
    assert_equal true, load("mnrb_req_counted.rb")
    assert_equal $mnrb_req_counted_before + 2, $mnrb_req_counted
    assert_equal "mnrb_req_counted", assert_raise(LoadError) { load "mnrb_req_counted" }.path
  end

  def test_load_with_wrap_module_keeps_definitions_in_it
    wrap = Module.new
    assert_equal true, load(File.join(LIB, "mnrb_req_defs.rb"), wrap)
    assert_equal :const, wrap.const_get(:MNRB_REQ_DEFS_CONST)
    methods = wrap.instance_methods
    methods += wrap.private_instance_methods if wrap.respond_to?(:private_instance_methods)
    assert methods.include?(:mnrb_req_defs_method)
    refute self.equal?($mnrb_req_defs_self)
    assert_equal :method, $mnrb_req_defs_self.__send__(:mnrb_req_defs_method)
  end

  def test_load_path_aliases_are_the_same_arrays
    assert_same $LOAD_PATH, $:
    assert_same $LOADED_FEATURES, $"
  end

  def test_builtin_features_are_loaded
    mnrb_only
    %w(thread fiber enumerator monitor thread.rb).each do |f|
      assert_equal false, require(f), f
    end
    assert_include $LOADED_FEATURES, "thread.rb"
    assert_include $LOADED_FEATURES, "monitor.rb"
  end

  def test_builtin_features_do_not_hide_paths
    assert_raise(LoadError) { require "./benchmark_no_such_file" }
  end

  # CRuby: a thread requiring a file another thread is loading waits for that load to finish.
  def test_two_threads_requiring_one_file_load_it_once
    $mnrb_req_gate_entered = Queue.new
    $mnrb_req_gate_release = Queue.new
    first = Thread.new { require "mnrb_req_gate" }
    $mnrb_req_gate_entered.pop
    second = Thread.new { require "mnrb_req_gate" }
    wait_until("the second require to wait") { second.status == "sleep" }
    assert_equal 1, $mnrb_req_gate_runs
    $mnrb_req_gate_release << :go
    assert_equal true, first.value
    assert_equal false, second.value
    assert_equal 1, $mnrb_req_gate_runs
  end

  # The waiter takes over when the loading thread dies before the file finished.
  def test_a_killed_loader_lets_a_waiting_thread_load_the_file
    $mnrb_req_gate_kill_entered = Queue.new
    $mnrb_req_gate_kill_release = Queue.new
    first = Thread.new { require "mnrb_req_gate_kill" }
    $mnrb_req_gate_kill_entered.pop
    second = Thread.new { require "mnrb_req_gate_kill" }
    wait_until("the second require to wait") { second.status == "sleep" }
    first.kill
    first.join
    $mnrb_req_gate_kill_entered.pop                      # the second thread runs the file now
    assert_equal 2, $mnrb_req_gate_kill_runs
    $mnrb_req_gate_kill_release << :go
    assert_equal true, second.value
    assert_include $LOADED_FEATURES, fixture("mnrb_req_gate_kill.rb")
  end

  # Only the forking thread lives on in the child: a file another thread was loading is loaded
  # afresh there instead of waiting for a loader that does not exist.
  def test_a_forked_child_can_require_a_file_being_loaded_in_the_parent
    fork_allowed!
    $mnrb_req_gate_fork_entered = Queue.new
    $mnrb_req_gate_fork_release = Queue.new
    loader = Thread.new { require "mnrb_req_gate_fork" }
    $mnrb_req_gate_fork_entered.pop
    r, w = IO.pipe
    pid = fork do
      r.close
      $mnrb_req_gate_fork_child = true
      w.write(require("mnrb_req_gate_fork").inspect + " #{$mnrb_req_gate_fork_runs}")
      w.close
      exit!(0)
    end
    w.close
    assert_equal "true 2", r.read
    Process.wait(pid)
    $mnrb_req_gate_fork_release << :go
    assert_equal true, loader.value
  end
end
