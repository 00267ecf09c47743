# RbConfig::CONFIG's bindir (the running interpreter's directory), DLEXT and TEENY, as CRuby's:
# rake's FileUtils::RUBY joins bindir, ruby_install_name and EXEEXT at load. Run on CRuby 3.3.8
# and 3.1.
require "rbconfig"

class RbconfigBindirTest < MnTest::Case
  def test_bindir_holds_the_running_ruby
    c = RbConfig::CONFIG
    assert_equal RbConfig.ruby, File.join(c["bindir"], c["ruby_install_name"] + c["EXEEXT"])
  end

  def test_extension_and_version_parts
    assert_equal "so", RbConfig::CONFIG["DLEXT"]
    assert_equal RUBY_VERSION.split(".")[0, 2], [RbConfig::CONFIG["MAJOR"], RbConfig::CONFIG["MINOR"]]
    assert(/\A\d+\z/.match?(RbConfig::CONFIG["TEENY"]))
  end
end
