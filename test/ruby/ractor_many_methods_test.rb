# Code with many methods (issue 20): a class of 30,000 methods finds each of them, after
# redefinition and removal, and inherited and built-in methods past it, in the main ractor and
# inside a ractor (whose copy of the class was made at Ractor.new, or defined in the ractor itself).
# Looking a name up in such a class costs about what it costs in a small one (mruby's method tables
# used to fill to the last slot with clustered symbols: 50x slower misses, mruby patch 0032); the
# bound below is loose (4x) and compares two loops of the same run.

BIG_METHODS = 30_000

def many_methods_source(name, n)
  src = +"class ::#{name} < Array\n"
  n.times { |i| src << "def m#{i}(x) x + #{i} end\n" }
  src << "end\n"
end

def check_many_methods(klass, n)
  o = klass.new
  bad = (0...n).reject { |i| o.__send__(:"m#{i}", 1) == i + 1 }
  raise "wrong results for #{bad.first(5)}" unless bad.empty?
  klass.class_eval("def m7(x) :redefined end")
  klass.send(:remove_method, :m8)
  [o.m7(1), o.respond_to?(:m8), o.m9(1), o.push(1).size, o.frozen?, o.respond_to?(:nope)]
end

EXPECTED_MANY = [:redefined, false, 10, 1, false, false]

class RactorManyMethodsTest < MnTest::Case
  def test_main_ractor_finds_every_method_after_redefinition_and_removal
    eval(many_methods_source("ManyMethodsMain", BIG_METHODS))
    assert_equal EXPECTED_MANY, check_many_methods(ManyMethodsMain, BIG_METHODS)
  end

  def test_a_ractor_finds_methods_it_defines
    r = Ractor.new(BIG_METHODS) do |n|
      eval(many_methods_source("ManyMethodsInRactor", n))
      check_many_methods(ManyMethodsInRactor, n)
    end
    assert_equal EXPECTED_MANY, r.take
  end

  def test_a_ractor_finds_methods_defined_before_it_was_made
    eval(many_methods_source("ManyMethodsBefore", 3_000))
    r = Ractor.new { check_many_methods(ManyMethodsBefore, 3_000) }
    assert_equal EXPECTED_MANY, r.take
  end

  def test_two_ractors_each_with_their_own_big_class
    rs = 2.times.map do |k|
      Ractor.new(k) do |kk|
        eval(many_methods_source("ManyMethodsTwo#{kk}", 5_000))
        klass = Object.const_get("ManyMethodsTwo#{kk}")
        klass.class_eval("def m0(x) #{kk} end")
        [klass.new.m0(1), klass.new.m4999(1)]
      end
    end
    assert_equal [[0, 5000], [1, 5000]], rs.map { |r| begin; r.take; rescue Ractor::RemoteError => e; e.cause; end }
  end

  def cpu_time(o, names)
    clock = Process::CLOCK_PROCESS_CPUTIME_ID
    t = Process.clock_gettime(clock)
    names.each { |n| o.respond_to?(n) }
    Process.clock_gettime(clock) - t
  end

  def test_a_missing_name_costs_about_what_it_costs_in_a_small_class
    big = Class.new
    src = +""
    BIG_METHODS.times { |i| src << "def b#{i}; end\n" }
    big.class_eval(src)
    small = Class.new
    absent = 20_000.times.map { |i| :"absent_name_#{i}" }
    ratio = 3.times.map { cpu_time(big.new, absent) }.min / 3.times.map { cpu_time(small.new, absent) }.min
    assert ratio < 4, "respond_to? of absent names: #{ratio.round(1)}x slower in a class of #{BIG_METHODS} methods"
  end
end
