# Pure-Ruby gems unpacked under GEM_HOME / GEM_PATH in RubyGems' layout (gems/NAME-VERSION/lib,
# with specifications/NAME-VERSION.gemspec, which CRuby's RubyGems reads and mnrb does not need),
# loaded as RubyGems loads them: Kernel#gem activates the newest version meeting the requirements,
# a plain require finds a feature that is only in a gem, gem_original_require does not, with
# RubyGems' errors. And $LOAD_PATH.resolve_feature_path. Each case runs in a child process with its
# own GEM_HOME, as RubyGems reads the variables once.

require "rbconfig"

class GemLoadingTest < MnTest::Case
  VERSIONS = %w(1.0.0 1.5.2 2.0.0)

  def setup
    @home = "/tmp/mnrb-gem-test-#{Process.pid}-#{rand(1 << 30)}"
    VERSIONS.each { |v| add_gem("mnrbtestfoo", v, "MNRBTESTFOO = #{v.inspect}\n") }
    add_gem("mnrbtestbar", "0.1", "require 'mnrbtestbaz'\nMNRBTESTBAR = MNRBTESTBAZ + 1\n")
    add_gem("mnrbtestbaz", "3.0", "MNRBTESTBAZ = 41\n")
  end

  def teardown
    system("rm", "-rf", @home)
  end

  def add_gem(name, version, code)
    lib = "#{@home}/gems/#{name}-#{version}/lib"
    system("mkdir", "-p", lib, "#{@home}/specifications")
    File.write("#{lib}/#{name}.rb", code)
    File.write("#{@home}/specifications/#{name}-#{version}.gemspec", <<~SPEC)
      Gem::Specification.new do |s|
        s.name = #{name.inspect}
        s.version = #{version.inspect}
        s.summary = "mnrb test gem"
        s.authors = ["mnrb"]
        s.files = ["lib/#{name}.rb"]
        s.require_paths = ["lib"]
      end
    SPEC
  end

  # What `code` prints (p of each result, or "Class: message" of what it raised), in a child.
  def run_child(code)
    prelude = 'def t; p yield; rescue Exception => e; puts "#{e.class}: #{e.message.lines.first.chomp}"; end; '
    env = { "GEM_HOME" => @home, "GEM_PATH" => "" }
    IO.popen([env, RbConfig.ruby, "-e", prelude + code], err: [:child, :out]) { |io| io.read }
  end

  def test_gem_activates_the_newest_version
    assert_equal "true\n\"2.0.0\"\n", run_child('t { gem "mnrbtestfoo" }; t { require "mnrbtestfoo"; MNRBTESTFOO }')
  end

  def test_gem_with_requirements
    out = run_child('t { gem "mnrbtestfoo", "~> 1.0" }; t { require "mnrbtestfoo"; MNRBTESTFOO }')
    assert_equal "true\n\"1.5.2\"\n", out
    out = run_child('t { gem "mnrbtestfoo", ">= 1.0", "< 1.5" }; t { require "mnrbtestfoo"; MNRBTESTFOO }')
    assert_equal "true\n\"1.0.0\"\n", out
    out = run_child('t { gem "mnrbtestfoo", "= 1.5.2" }; t { require "mnrbtestfoo"; MNRBTESTFOO }')
    assert_equal "true\n\"1.5.2\"\n", out
  end

  def test_gem_puts_the_lib_directory_on_the_load_path
    out = run_child('gem "mnrbtestfoo", "1.0.0"; t { $LOAD_PATH.include?(ENV["GEM_HOME"] + "/gems/mnrbtestfoo-1.0.0/lib") }')
    assert_equal "true\n", out
  end

  def test_gem_again_is_false_and_another_version_is_an_error
    out = run_child('t { gem "mnrbtestfoo", "~> 1.0" }; t { gem "mnrbtestfoo" }; t { gem "mnrbtestfoo", "= 2.0.0" }')
    assert_equal "true\nfalse\nGem::LoadError: can't activate mnrbtestfoo-2.0.0, already activated mnrbtestfoo-1.5.2\n", out
  end

  def test_missing_gem_and_missing_version
    out = run_child('t { gem "mnrbtestnope" }; t { Gem::MissingSpecError.ancestors.include?(LoadError) }')
    assert out.start_with?("Gem::MissingSpecError: Could not find 'mnrbtestnope' (>= 0) among "), out
    assert out.end_with?("true\n"), out
    out = run_child('t { gem "mnrbtestfoo", ">= 3" }')
    assert_equal "Gem::MissingSpecVersionError: Could not find 'mnrbtestfoo' (>= 3) - did find: " \
                 "[mnrbtestfoo-2.0.0,mnrbtestfoo-1.5.2,mnrbtestfoo-1.0.0]\n", out
  end

  # Gem.find_files / find_latest_files (minitest finds its plugins with find_files).
  def test_find_files_in_load_path_and_gems
    VERSIONS.each do |v|
      system("mkdir", "-p", "#{@home}/gems/mnrbtestfoo-#{v}/lib/mnrbtestfoo")
      File.write("#{@home}/gems/mnrbtestfoo-#{v}/lib/mnrbtestfoo/a_plugin.rb", "")
    end
    system("mkdir", "-p", "#{@home}/lp/mnrbtestfoo")
    File.write("#{@home}/lp/mnrbtestfoo/b_plugin.rb", "")
    code = '$LOAD_PATH.unshift(ENV["GEM_HOME"] + "/lp"); h = ENV["GEM_HOME"]; ' \
           'f = Gem.find_files("mnrbtestfoo/*_plugin.rb").map { |x| x.sub(h, "") }.sort; t { f }; ' \
           'l = Gem.find_latest_files("mnrbtestfoo/*_plugin").map { |x| x.sub(h, "") }.sort; t { l }; ' \
           't { Gem.find_files("mnrbtestfoo/*_plugin.rb", false).size }'
    out = run_child(code)
    found = VERSIONS.map { |v| "/gems/mnrbtestfoo-#{v}/lib/mnrbtestfoo/a_plugin.rb" }
    assert_equal "#{(found + ["/lp/mnrbtestfoo/b_plugin.rb"]).sort.inspect}\n" \
                 "#{[found.last, "/lp/mnrbtestfoo/b_plugin.rb"].sort.inspect}\n3\n", out
  end

  def test_require_finds_a_feature_only_in_a_gem
    assert_equal "true\n\"2.0.0\"\n", run_child('t { require "mnrbtestfoo" }; t { MNRBTESTFOO }')
  end

  def test_a_gems_own_requires_find_other_gems
    assert_equal "42\n", run_child('require "mnrbtestbar"; t { MNRBTESTBAR }')
  end

  def test_gem_original_require_does_not_look_in_gems
    out = run_child('t { gem_original_require "mnrbtestfoo" }')
    assert_equal "LoadError: cannot load such file -- mnrbtestfoo\n", out
  end

  def test_rubygems_is_already_loaded
    assert_equal "false\n\"constant\"\n", run_child('t { require "rubygems" }; t { defined?(Gem) }')
  end

  def test_resolve_feature_path_of_a_file_on_the_load_path
    lib = "#{@home}/gems/mnrbtestfoo-1.0.0/lib"
    out = run_child("$LOAD_PATH.unshift(#{lib.inspect}); t { $LOAD_PATH.resolve_feature_path('mnrbtestfoo') }")
    assert_equal "[:rb, #{(lib + "/mnrbtestfoo.rb").inspect}]\n", out
  end

  def test_resolve_feature_path_of_an_activated_gem
    out = run_child('gem "mnrbtestfoo"; t { $LOAD_PATH.resolve_feature_path("mnrbtestfoo") }')
    assert_equal "[:rb, #{"#{@home}/gems/mnrbtestfoo-2.0.0/lib/mnrbtestfoo.rb".inspect}]\n", out
  end

  def test_resolve_feature_path_of_nothing_is_nil
    assert_nil $LOAD_PATH.resolve_feature_path("mnrb_no_such_feature")
    e = assert_raise(TypeError) { $LOAD_PATH.resolve_feature_path(1) }
    assert_equal "no implicit conversion of Integer into String", e.message
  end

  # CRuby: the file's path; mnrb has json built in, without a file: the name require records.
  def test_resolve_feature_path_of_a_built_in_library
    kind, path = $LOAD_PATH.resolve_feature_path("json")
    assert_equal :rb, kind
    assert path.end_with?("json.rb"), path
  end

  def test_gem_version_compares_as_rubygems
    assert Gem::Version.new("3.3") >= Gem::Version.new("3.0")
    assert Gem::Version.new("1.10") > Gem::Version.new("1.9")
    assert_equal 0, Gem::Version.new("1.0") <=> Gem::Version.new("1")
    assert Gem::Version.new("1.0.a") < Gem::Version.new("1.0")
    assert Gem::Version.new("2.0.rc1").prerelease?
    assert_equal [1, 2, 3], Gem::Version.new("1.2.3").segments
    assert_equal "1.2.3", Gem::Version.new("1.2.3").to_s
    assert Gem::Version.correct?("1.2")
    refute Gem::Version.correct?("x")
    assert_raise(ArgumentError) { Gem::Version.new("junk") }
    assert Gem::Version.new(RUBY_VERSION) >= Gem::Version.new("3.1")
  end
end
