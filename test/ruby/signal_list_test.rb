# Signal.list (names without SIG to numbers, "EXIT" => 0, aliases IOT/CLD/POLL) and Signal.signame
# as CRuby 3.1 on Linux x86-64 has them.
class SignalListTest < MnTest::Case
  def test_list
    list = Signal.list
    assert_kind_of Hash, list
    assert_equal 0, list["EXIT"]
    assert_equal 1, list["HUP"]
    assert_equal 9, list["KILL"]
    assert_equal 15, list["TERM"]
    assert_equal 6, list["IOT"]
    assert_equal 17, list["CLD"]
    assert_equal 29, list["POLL"]
    assert_nil list["STKFLT"]
    assert(list.keys.all? { |k| k.is_a?(String) && !k.start_with?("SIG") })
    list["FOO"] = 1
    assert_nil Signal.list["FOO"]
  end

  def test_signame
    assert_equal "EXIT", Signal.signame(0)
    assert_equal "ABRT", Signal.signame(6)
    assert_equal "CHLD", Signal.signame(17)
    assert_equal "IO", Signal.signame(29)
    assert_nil Signal.signame(99)
    assert_raise(TypeError) { Signal.signame("INT") }
  end
end
