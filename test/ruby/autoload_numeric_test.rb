# Module#autoload / Kernel#autoload (the first use of the constant requires its file), the visibility
# declarations real libraries make at load time (private_constant, private_class_method: accepted,
# though mnrb enforces no visibility), and a real number's complex view (conj, real, imag, arg, polar,
# abs2, rect, coerce, numerator), as CRuby's. Found by loading Debian's matrix and prime gems.
require "tmpdir"

class AutoloadNumericTest < MnTest::Case
  def test_autoload_requires_the_file_at_the_first_use
    Dir.mktmpdir("autoload") do |dir|
      File.write(File.join(dir, "mn_autoloaded_thing.rb"), "module MnAutoloadedThing; VALUE = 42; end\n")
      File.write(File.join(dir, "mn_autoload_inner.rb"), "class AutoloadNumericTest::Outer; INNER = :inner; end\n")
      $LOAD_PATH.unshift(dir)
      begin
        autoload :MnAutoloadedThing, "mn_autoloaded_thing"
        assert_equal "mn_autoloaded_thing", autoload?(:MnAutoloadedThing)
        assert_equal 42, MnAutoloadedThing::VALUE
        assert_nil autoload?(:MnAutoloadedThing)
        self.class.const_set(:Outer, Class.new)
        Outer.autoload(:INNER, "mn_autoload_inner")
        assert_equal "mn_autoload_inner", Outer.autoload?(:INNER)
        assert_equal :inner, Outer::INNER
      ensure
        $LOAD_PATH.delete(dir)
      end
    end
  end

  # an autoload of an outer module is found from a class nested in it, and from a subclass (CRuby
  # looks in the lexical scopes, then the ancestors; Rack's `class Response` reads Rack's Utils)
  def test_autoload_of_an_enclosing_module_is_found_from_a_nested_class
    Dir.mktmpdir("autoload") do |dir|
      File.write(File.join(dir, "util.rb"), "module MnAutoloadNest; module Util; X = 1; end; end\n")
      File.write(File.join(dir, "base_k.rb"), "class MnAutoloadBase; module K; Y = 2; end; end\n")
      File.write(File.join(dir, "main.rb"), <<~RUBY)
        module MnAutoloadNest
          autoload :Util, #{File.join(dir, "util.rb").inspect}
          class Inner
            X = Util::X
          end
        end
        class MnAutoloadBase
          autoload :K, #{File.join(dir, "base_k.rb").inspect}
        end
        class MnAutoloadSub < MnAutoloadBase
          def self.y = K::Y
        end
      RUBY
      require File.join(dir, "main.rb")
      assert_equal 1, MnAutoloadNest::Inner::X
      assert_equal 2, MnAutoloadSub.y
    end
  end

  # CRuby finds an autoload before calling const_missing, also one the module defines itself
  # (CodeRay's PluginHost extends its plugin modules with a const_missing and autoloads there)
  def test_autoload_comes_before_a_modules_own_const_missing
    Dir.mktmpdir("autoload") do |dir|
      File.write(File.join(dir, "base.rb"), "module MnAutoloadHost; class Base; end; end\n")
      File.write(File.join(dir, "host.rb"), <<~RUBY)
        module MnAutoloadHost
          def self.const_missing(name) = :from_const_missing
          autoload :Base, #{File.join(dir, "base.rb").inspect}
          class Derived < Base; end
        end
      RUBY
      require File.join(dir, "host.rb")
      assert_equal MnAutoloadHost::Base, MnAutoloadHost::Derived.superclass
      assert_equal :from_const_missing, MnAutoloadHost::Other
    end
  end

  # the file required directly (not through the constant) defines it: autoload? is nil then
  def test_autoload_is_done_when_the_file_is_required_directly
    Dir.mktmpdir("autoload") do |dir|
      path = File.join(dir, "mn_autoload_direct.rb")
      File.write(path, "class MnAutoloadDirect; end\n")
      Object.autoload(:MnAutoloadDirect, path)
      assert_equal path, Object.autoload?(:MnAutoloadDirect)
      assert_equal path, AutoloadNumericTest.autoload?(:MnAutoloadDirect)
      require path
      assert_nil Object.autoload?(:MnAutoloadDirect)
      assert_nil AutoloadNumericTest.autoload?(:MnAutoloadDirect)
      assert_equal "MnAutoloadDirect", MnAutoloadDirect.name
    end
  end

  def test_a_missing_constant_without_autoload_still_raises_name_error
    assert_raise(NameError) { Object.const_get(:MnNoSuchConstantAnywhere) }
  end

  def test_visibility_declarations_are_accepted
    k = Class.new do
      const_set(:SECRET, 1)
      private_constant :SECRET
      def self.make = new
      private_class_method :new
      public_class_method :make
    end
    assert_kind_of k, k.make
  end

  def test_real_numbers_seen_as_complex
    assert_equal 3, 3.conj
    assert_equal 2.5, 2.5.conjugate
    assert_equal 3, 3.real
    assert_equal 0, 3.imag
    assert_equal [3, 0], 3.rect
    assert_equal 9, 3.abs2
    assert_equal Math::PI, -1.arg
    assert_equal Math::PI, -0.0.arg
    assert_equal 0, 0.0.arg
    assert_equal [2.5, Math::PI], -2.5.polar
    assert 3.real?
    assert_equal [2.5, 1.0], 1.coerce(2.5)
    assert_equal [2.0, 1.5], 1.5.coerce(2)
    assert_equal [3, 4], [0.75.numerator, 0.75.denominator]
    assert_equal [3, 1], [3.numerator, 3.denominator]
  end
end
