# Refinements from a module without a name (`using Module.new { refine ... }`) are active in a
# Ractor's block written after the `using`, as in CRuby (refinements are lexical; checked on CRuby
# 3.3.8). mnrb copies the block into the new ractor's heap and gives it its activations again,
# made of that heap's modules (mnrb-ractor refinements.c); a module without a name is stood for by
# one made for it. Before sem20k its refinements were left out and the send ran unrefined.

using Module.new {
  refine(String) do
    def anon_ref_shout = upcase + "!"
    def anon_ref_twice = anon_ref_shout * 2      # refined methods call each other
  end
  refine(Integer) do
    def anon_ref_double = self * 2
  end
}

ANON_REF_RESULT = Ractor.new do
  [("a".anon_ref_shout rescue :unrefined), ("b".anon_ref_twice rescue :unrefined),
   (21.anon_ref_double rescue :unrefined)]
end.take

class RactorRefinementsAnonymousTest < MnTest::Case
  def test_an_anonymous_module_s_refinements_are_active_in_the_block
    assert_equal ["A!", "B!B!", 42], ANON_REF_RESULT
  end

  def test_they_are_active_in_the_main_ractor_too
    assert_equal "C!", "c".anon_ref_shout
  end
end
