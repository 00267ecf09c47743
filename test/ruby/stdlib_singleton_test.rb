# require "singleton" as CRuby's: one instance per class (also under threads racing to make it),
# new refused with NoMethodError, clone/dup refused with TypeError and CRuby's messages, a
# subclass's own instance, and only classes may include it.
require "singleton"

class StdlibSingletonTest < MnTest::Case
  class Config
    include Singleton
    attr_accessor :value
    def initialize = @value = 1
  end

  class SubConfig < Config; end

  def test_instance_is_always_the_same_object
    assert_same Config.instance, Config.instance
    assert_equal 1, Config.instance.value
  end

  def test_new_is_refused
    e = assert_raise(NoMethodError) { Config.new }
    assert_include e.message, "private method"
    assert_include e.message, "new"
  end

  def test_clone_and_dup_are_refused
    e = assert_raise(TypeError) { Config.instance.clone }
    assert_equal "can't clone instance of singleton StdlibSingletonTest::Config", e.message
    e = assert_raise(TypeError) { Config.instance.dup }
    assert_equal "can't dup instance of singleton StdlibSingletonTest::Config", e.message
  end

  def test_subclass_has_its_own_instance
    assert_kind_of SubConfig, SubConfig.instance
    refute SubConfig.instance.equal?(Config.instance)
    assert_same SubConfig.instance, SubConfig.instance
  end

  def test_threads_racing_for_the_first_instance_get_one_object
    klass = Class.new { include Singleton }
    threads = 8.times.map { Thread.new { klass.instance } }
    assert_equal 1, threads.map(&:value).map(&:object_id).uniq.size
  end

  def test_only_classes_may_include_it
    e = assert_raise(TypeError) { Module.new { include Singleton } }
    assert e.message.start_with?("Inclusion of the OO-Singleton module in module"), e.message
  end

  def test_marshal_hooks_answer_the_instance
    assert_equal "", Config.instance._dump
    assert_same Config.instance, Config._load("")
  end
end
