# Addresses in inspect and to_s are zero-padded to the pointer's width, as CRuby prints them
# (mruby patch 0059).
class AddressInspectTest < MnTest::Case
  ADDR = /0x\h{16}/

  def test_object_inspect_and_to_s
    o = Object.new
    assert(/\A#<Object:#{ADDR}>\z/.match?(o.inspect), o.inspect)
    assert(/\A#<Object:#{ADDR}>\z/.match?(o.to_s), o.to_s)
  end

  def test_anonymous_class_and_module
    assert(/\A#<Class:#{ADDR}>\z/.match?(Class.new.inspect), Class.new.inspect)
    assert(/\A#<Module:#{ADDR}>\z/.match?(Module.new.to_s), Module.new.to_s)
  end

  def test_instance_of_an_anonymous_class
    assert(/\A#<#<Class:#{ADDR}>:#{ADDR}>\z/.match?(Class.new.new.inspect), Class.new.new.inspect)
  end

  def test_the_same_object_gives_the_same_address
    o = Object.new
    assert_equal o.to_s, o.to_s
    refute(o.to_s == Object.new.to_s)
  end

  def test_singleton_class_of_an_object
    o = Object.new
    assert(/\A#<Class:#<Object:#{ADDR}>>\z/.match?(o.singleton_class.inspect), o.singleton_class.inspect)
  end
end
