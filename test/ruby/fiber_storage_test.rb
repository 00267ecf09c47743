# Fiber storage (CRuby 3.2+, Fiber[] docs): Fiber[key] and Fiber[key] = value on the current
# fiber's storage (Symbol keys, nil deletes), Fiber#storage a copy (the current fiber's only),
# Fiber.new(storage:) a copy of the given Hash, nil for none, the creator's copy by default, and a
# new Thread starts with a copy of its creator's. Expected values: CRuby 3.3.8 (3.1 has none).

class FiberStorageTest < MnTest::Case
  def setup
    @storage = Fiber.respond_to?(:[])
    (Fiber.current.storage || {}).each_key { |k| Fiber[k] = nil } if @storage
  end

  def self.method_added(name)
    super
    return unless name.to_s.start_with?("test_") && !@wrapping
    @wrapping = true
    body = instance_method(name)
    define_method(name) do
      skip("Fiber storage is CRuby 3.2+") unless @storage
      body.bind(self).call
    end
    @wrapping = false
  end

  def test_set_and_get
    Fiber[:a] = 1
    assert_equal 1, Fiber[:a]
    assert_equal({a: 1}, Fiber.current.storage)
    Fiber[:a] = nil
    assert_nil Fiber[:a]
    assert_equal({}, Fiber.current.storage)
  end

  def test_storage_of_a_fiber_that_never_set_one_is_nil
    assert_nil Fiber.new(storage: nil) { Fiber.current.storage }.resume
  end

  def test_keys_must_be_symbols
    assert_raise(TypeError) { Fiber["a"] }
    assert_raise(TypeError) { Fiber[1] = 2 }
  end

  def test_new_fiber_inherits_a_copy
    Fiber[:a] = 1
    f = Fiber.new { Fiber[:a] = 2; Fiber[:a] }
    assert_equal 2, f.resume
    assert_equal 1, Fiber[:a]
  end

  def test_new_fiber_with_storage_hash_copies_it
    h = {b: 1}
    f = Fiber.new(storage: h) { Fiber[:b] = 5; [Fiber[:a], Fiber.current.storage] }
    Fiber[:a] = 1
    assert_equal [nil, {b: 5}], f.resume
    assert_equal({b: 1}, h)
  end

  def test_new_fiber_with_nil_storage_starts_empty
    Fiber[:a] = 1
    assert_nil Fiber.new(storage: nil) { Fiber[:a] }.resume
  end

  def test_bad_storage_is_refused
    assert_raise(TypeError) { Fiber.new(storage: 1) {} }
    assert_raise(TypeError) { Fiber.new(storage: {"x" => 1}) {} }
  end

  def test_storage_of_another_fiber_is_refused
    f = Fiber.new {}
    assert_raise(ArgumentError) { f.storage }
  end

  def test_thread_inherits_a_copy
    Fiber[:a] = 1
    t = Thread.new { before = Fiber[:a]; Fiber[:a] = 7; [before, Fiber[:a]] }
    assert_equal [1, 7], t.value
    assert_equal 1, Fiber[:a]
  end

  def test_thread_started_without_storage_has_none
    assert_nil Thread.new { Fiber[:a] }.value
  end

  def test_enumerator_next_sees_the_storage
    Fiber[:z] = 3
    assert_equal 3, Enumerator.new { |y| y << Fiber[:z] }.next
  end

  def test_storage_is_not_an_instance_variable
    Fiber[:a] = 1
    assert_equal [], Fiber.current.instance_variables
  end
end
