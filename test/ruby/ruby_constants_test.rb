# The constants that describe the running Ruby, as CRuby defines them: frozen Strings (an Integer
# for RUBY_PATCHLEVEL), RUBY_DESCRIPTION is what `-v` prints. mnrb is its own engine: RUBY_ENGINE
# is "mnrb" and RUBY_ENGINE_VERSION mnrb's version, while RUBY_VERSION names the CRuby it follows.

class RubyConstantsTest < MnTest::Case
  def test_the_constants_exist_with_crubys_types
    %i[RUBY_VERSION RUBY_ENGINE RUBY_ENGINE_VERSION RUBY_PLATFORM RUBY_DESCRIPTION RUBY_RELEASE_DATE
       RUBY_COPYRIGHT].each do |name|
      value = Object.const_get(name)
      assert_kind_of String, value, name
      assert value.frozen?, "#{name} is frozen"
    end
    assert_kind_of Integer, RUBY_PATCHLEVEL
  end

  def test_release_date_is_a_date
    assert(/\A\d{4}-\d\d-\d\d\z/.match?(RUBY_RELEASE_DATE), RUBY_RELEASE_DATE)
  end

  def test_description_names_the_engine_and_platform
    assert RUBY_DESCRIPTION.start_with?("#{RUBY_ENGINE == "mnrb" ? "mnrb" : "ruby"} "), RUBY_DESCRIPTION
    assert RUBY_DESCRIPTION.include?(RUBY_ENGINE == "mnrb" ? RUBY_ENGINE_VERSION : RUBY_VERSION), RUBY_DESCRIPTION
    assert RUBY_DESCRIPTION.end_with?("]"), RUBY_DESCRIPTION
  end

  def test_copyright_names_the_engine
    assert RUBY_COPYRIGHT.start_with?("#{RUBY_ENGINE == "mnrb" ? "mnrb" : "ruby"} - Copyright"), RUBY_COPYRIGHT
  end

  # CRuby's three parts, so that the usual string and Gem::Version checks work
  def test_version_has_three_parts
    assert(/\A\d+\.\d+\.\d+\z/.match?(RUBY_VERSION), RUBY_VERSION)
    assert RUBY_VERSION >= "3.1.0"
    assert_equal RUBY_VERSION.split(".")[2], RbConfig::CONFIG["TEENY"]
    assert_equal "#{RUBY_VERSION[/\A\d+\.\d+/]}.0", RbConfig::CONFIG["ruby_version"]
  end

  def test_platform_names_the_os
    assert(/linux|darwin/.match?(RUBY_PLATFORM), RUBY_PLATFORM)
  end

  def test_description_is_what_dash_v_prints
    bin = RUBY_ENGINE == "mnrb" ? File.expand_path("../../bin/mnrb", __dir__) : "/usr/bin/ruby"
    return skip("no #{bin}") unless File.exist?(bin)
    assert_equal RUBY_DESCRIPTION, IO.popen([bin, "-v"], &:read).chomp
  end

  def test_engine
    return mnrb_only unless mnrb?
    assert_equal "mnrb", RUBY_ENGINE
    assert_equal "3.3.8", RUBY_VERSION
    assert_equal MNRB_VERSION, RUBY_ENGINE_VERSION if defined?(MNRB_VERSION)
  end
end
