# Kernel#inspect as CRuby's: a plain object shows its instance variables whether or not its class
# defines to_s (mruby used to_s's "#<Foo:0x...>" then).

class KernelInspectTest < MnTest::Case
  class WithToS
    def initialize
      @a = 1
      @b = "x"
    end

    def to_s
      "custom"
    end
  end

  class Bare
    def to_s
      "bare"
    end
  end

  # (mnrb lists them in its instance-variable table's order, which is not always the order they were
  # set in, as CRuby's: README, "Where mnrb differs")
  def test_instance_variables_are_shown_beside_a_custom_to_s
    s = WithToS.new.inspect
    assert(/\A#<KernelInspectTest::WithToS:0x[0-9a-f]+ (@a=1, @b="x"|@b="x", @a=1)>\z/.match?(s), s)
  end

  def test_without_instance_variables_class_and_address
    s = Bare.new.inspect
    assert(/\A#<KernelInspectTest::Bare:0x[0-9a-f]+>\z/.match?(s), s)
  end

  def test_benchmark_times_inspect_with_their_numbers
    require "benchmark"
    s = Benchmark::Tms.new(1.5, 0.25).inspect
    assert_include s, "@utime=1.5"
    assert_include s, "@stime=0.25"
  end
end
