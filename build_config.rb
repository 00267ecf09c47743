# mruby build configuration for mnrb (used by the Makefile; see README).
# One build per variant: `host` (the release runtime) and the sanitizer builds `asan` (AddressSanitizer +
# UBSan) and `tsan` (ThreadSanitizer), selected by MNRB_BUILDS. Every variant compiles mruby, its gems and
# mnrb's own gems with the same defines, so that mrb_state's layout agrees everywhere.
MNRB_TOP = File.expand_path(__dir__)
SANITIZE = {
  'asan' => %w(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer),
  'tsan' => %w(-fsanitize=thread),
}

def mnrb_gems(conf)
  %w(stdlib metaprog).each { |box| conf.gembox box }
  # the math gembox but mruby-rational/-complex/-cmath: mnrb-rational and mnrb-complex are CRuby's
  # Rational and Complex (any Integer / any Real as parts)
  %w(math bigint).each { |g| conf.gem core: "mruby-#{g}" }
  # stdlib-ext's gems but mruby-random: mnrb-random is CRuby's Random (MT19937, the same numbers)
  %w(pack sprintf time struct data).each { |g| conf.gem core: "mruby-#{g}" }
  conf.gem core: 'mruby-io'             # stdlib-io's gems but mruby-socket, which mnrb-io builds
                                        # into `require "socket"`
  conf.gem core: 'mruby-error'          # mrb_protect/mrb_ensure C API
  conf.gem core: 'mruby-catch'          # catch/throw
  conf.gem core: 'mruby-dir'            # Dir (mruby-errno is left out: mnrb-io defines SystemCallError)
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-thread"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-compat"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-io"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-process"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-gvl-tracing"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-gvltools"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-require"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-stdlib"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-net-http"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-ractor"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-encoding"  # Encoding, encode, case mapping (patches/mruby/0018)
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-regexp"    # needs libonig-dev (scripts/deps.sh)
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-embed"     # include/mnrb.h: the C API for embedders
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-random"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-strscan"   # require "strscan"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-marshal"   # Marshal (core: defined at boot)
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-digest"    # require "digest"; needs nettle-dev (scripts/deps.sh)
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-yaml"      # require "yaml"/"psych"; needs libyaml-dev (scripts/deps.sh)
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-zlib"      # require "zlib"; needs zlib1g-dev (scripts/deps.sh)
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-openssl"   # require "openssl"; needs libssl-dev (scripts/deps.sh)
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-fcntl"     # require "fcntl"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-console"   # require "io/console", "io/console/size"
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-rational"  # Rational, Integer/Float coerce (core: at boot)
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-complex"   # Complex (core: at boot)
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-bigdecimal" # require "bigdecimal", "bigdecimal/util" (Ruby over Integer)
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-syslog"    # require "syslog", "syslog/logger" (libc syslog(3))
  conf.gem "#{MNRB_TOP}/mrbgems/mnrb-pty"       # require "pty", "expect" (posix_openpt, posix_spawn)
  conf.cc.include_paths << "#{MNRB_TOP}/core/include"
  # mruby 3.3 caps Arrays at 131,072 elements by default; CRuby has no such cap.
  conf.defines << 'MRB_ARY_LENGTH_MAX=0'
  # Strings count characters as CRuby does (UTF-8, with mnrb's encoding bits: patches/mruby/0018).
  conf.defines << 'MRB_UTF8_STRING'
  conf.cc.flags << '-pthread'
end

MRuby::Build.new('host') do |conf|
  conf.toolchain :gcc
  conf.gem core: 'mruby-bin-mrbc'
  mnrb_gems(conf)
  conf.enable_test   # mrbtest: mruby's own tests (with mnrb's patches) and mnrb-compat's
end

(ENV['MNRB_BUILDS'] || '').split.each do |variant|
  next if variant == 'host'
  flags = SANITIZE.fetch(variant) { raise "unknown mnrb build variant #{variant}" }
  MRuby::CrossBuild.new(variant) do |conf|
    conf.toolchain :gcc
    conf.cc.flags << %w(-O1 -g) << flags
    conf.linker.flags << flags
    mnrb_gems(conf)
  end
end
