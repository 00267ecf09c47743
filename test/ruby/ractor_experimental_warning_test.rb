# The first Ractor.new of a process warns, once, as CRuby 4.0 does (ractor.rb: "Ractor API is
# experimental and may change in future versions of Ruby.", at the caller's line, category
# :experimental; CRuby 3.3.8 says "Ractor is experimental, and the behavior may change in future
# versions of ruby! Also there are many implementation issues." in the same way). Warning[:experimental]
# = false, -W:no-experimental and -W0 silence it. Before sem20k mnrb never warned, and
# -W:no-experimental left Warning[:experimental] true.

class RactorExperimentalWarningTest < MnTest::Case
  WARNING = if RUBY_ENGINE == "ruby" && RUBY_VERSION < "3.5"    # the words CRuby 3.3.8 checks with
    "warning: Ractor is experimental, and the behavior may change in future versions of Ruby! Also there are many implementation issues.\n"
  else
    "warning: Ractor API is experimental and may change in future versions of Ruby.\n"
  end

  def run_child(code, *switches)
    IO.popen([RbConfig.ruby, *switches, "-e", code], err: [:child, :out], &:read)
  end

  def test_the_first_ractor_new_warns_once_at_its_line
    out = run_child("x = 1\nRactor.new { 1 }.take\nRactor.new { 2 }.take\nputs :done")
    assert_equal "-e:2: #{WARNING}done\n", out
  end

  def test_warning_experimental_false_silences_it
    assert_equal "done\n", run_child("Warning[:experimental] = false; Ractor.new { 1 }.take; puts :done")
  end

  def test_the_switch_no_experimental_silences_it
    assert_equal "false\ndone\n", run_child("p Warning[:experimental]; Ractor.new { 1 }.take; puts :done", "-W:no-experimental")
  end

  def test_w0_silences_it
    assert_equal "done\n", run_child("Ractor.new { 1 }.take; puts :done", "-W0")
  end

  def test_a_ractor_s_own_ractor_new_does_not_warn_again
    out = run_child("Ractor.new { Ractor.new { 1 }.take }.take; puts :done")
    assert_equal "-e:1: #{WARNING}done\n", out
  end
end
