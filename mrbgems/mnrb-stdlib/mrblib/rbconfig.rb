# RbConfig: what scripts ask about the running Ruby, answered for mnrb. RbConfig.ruby is this
# executable (for spawning another mnrb), read from /proc/self/exe.
module RbConfig
  TOPDIR = nil
  CONFIG = {
    "ruby_install_name" => "mnrb",
    "RUBY_INSTALL_NAME" => "mnrb",
    "RUBY_PROGRAM_VERSION" => RUBY_VERSION,
    "ruby_version" => "#{RUBY_VERSION.split(".")[0, 2].join(".")}.0",   # the library ABI's, as CRuby's
    "MAJOR" => RUBY_VERSION.split(".")[0],
    "MINOR" => RUBY_VERSION.split(".")[1],
    "host_os" => "linux",
    "target_os" => "linux",
    "host_cpu" => "x86_64",
    "arch" => "x86_64-linux",
    "EXEEXT" => "",
    "DLEXT" => "so",
    "SOEXT" => "so",
    "TEENY" => RUBY_VERSION.split(".")[2] || "0",
    "PATCHLEVEL" => RUBY_PATCHLEVEL.to_s,
  }
  # the directory of this executable, as CRuby's bindir (rake's FileUtils::RUBY joins it with
  # ruby_install_name and EXEEXT). C methods only here: a built-in Ruby method called at boot
  # would be made in every ractor's state (patches/mruby/0092).
  exe = File.readlink("/proc/self/exe") rescue "/"
  CONFIG["bindir"] = exe[0, exe.rindex("/") || 0]

  def self.ruby
    File.readlink("/proc/self/exe")
  end
end
MNRB::Loader.provide "rbconfig"
