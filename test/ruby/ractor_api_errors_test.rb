# Issue 20: CRuby's errors for Ractor calls that cannot work (bootstraptest/test_ractor.rb
# "Ractor.allocate is not supported", "Exception for empty select", "Can not trap with not isolated
# Proc on non-main ractor"): a Ractor is made by Ractor.new only, so Ractor.allocate, #dup and #clone
# raise TypeError "allocator undefined for Ractor" (CRuby 3.1 and 4.0); Ractor.select with nothing to
# wait for raises CRuby 4.0's ArgumentError (3.x words it "specify at least one ractor or
# `yield_value`"); in a non-main ractor, trap with a block that reads outer variables raises
# CRuby 3.3's ArgumentError "can not isolate a Proc because it accesses outer variables (s)."
# (3.1 too), while one that reads none is accepted, and the main ractor's trap takes any block.
class RactorApiErrorsTest < MnTest::Case
  def result(r) = Ractor.method_defined?(:value) ? r.value : r.take

  def test_ractor_allocate_dup_and_clone
    e = assert_raise(TypeError) { Ractor.allocate }
    assert_equal "allocator undefined for Ractor", e.message
    r = Ractor.new { :done }
    assert_equal "allocator undefined for Ractor", assert_raise(TypeError) { r.dup }.message
    assert_equal "allocator undefined for Ractor", assert_raise(TypeError) { r.clone }.message
    assert_equal :done, result(r)                 # the original is untouched
  end

  def test_select_with_nothing_to_wait_for
    e = assert_raise(ArgumentError) { Ractor.select }
    four = Ractor.method_defined?(:value)
    assert_equal four ? "specify at least one Ractor::Port or Ractor" : "specify at least one ractor or `yield_value`", e.message
  end

  def test_trap_in_a_non_main_ractor_refuses_a_block_reading_outer_variables
    got = result(Ractor.new do
      ok = trap(:USR2) { :no_outer_variable }
      s = +"str"
      refused = begin
        trap(:USR2) { p s }
        :accepted
      rescue ArgumentError => e
        e.message
      end
      [ok.nil? || ok == "DEFAULT" || ok == "SYSTEM_DEFAULT", refused]
    end)
    assert_equal [true, "can not isolate a Proc because it accesses outer variables (s)."], got
  end

  def test_the_main_ractor_s_trap_takes_any_block
    s = +"str"
    previous = trap(:USR2) { s }
    assert_equal "str", trap(:USR2, previous || "DEFAULT").call
  end
end
