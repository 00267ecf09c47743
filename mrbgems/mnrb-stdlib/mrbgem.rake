# mnrb-stdlib: the parts of CRuby's standard library that concurrency scripts require and that are
# small enough to be built in. Etc and RbConfig are there from the start (mrblib/, provided to
# `require` as loaded); timeout, stringio, benchmark, pp, json and tmpdir load at their first require, as in
# CRuby, so that a state (each ractor) that does not use them does not pay for them (lib/,
# mnrb-require's mnrb_feature.h). Kernel#pp requires "pp" at its first call, as CRuby's does.
require_relative "../mnrb-require/feature_build"

MRuby::Gem::Specification.new('mnrb-stdlib') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "CRuby's timeout (one shared watcher thread), etc, rbconfig, stringio, benchmark, pp, json and tmpdir"
  spec.add_dependency 'mnrb-require'
  spec.add_dependency 'mnrb-thread'                                # Timeout: Thread#raise, Mutex
  spec.add_dependency 'mnrb-compat'                                # Process.clock_gettime, Process.times
  spec.add_dependency 'mruby-io',   core: 'mruby-io'               # RbConfig.ruby: File.readlink
  spec.add_dependency 'mruby-sprintf',    core: 'mruby-sprintf'     # Benchmark formats
  spec.add_dependency 'mruby-string-ext', core: 'mruby-string-ext'  # ljust, rjust, lines
  spec.add_dependency 'mruby-class-ext',  core: 'mruby-class-ext'   # Module#name for pp
  spec.cc.include_paths << "#{dir}/../../core/include"             # mn_cpu_count
  MNRBFeatures.compile(spec, "mnrb_stdlib",
                       "timeout" => %w(timeout), "stringio" => %w(stringio),
                       "benchmark" => %w(benchmark), "prettyprint" => %w(prettyprint), "pp" => %w(pp),
                       "json" => %w(json),
                       "tmpdir" => %w(tmpdir),
                       "base64" => %w(base64), "shellwords" => %w(shellwords),
                       "singleton" => %w(singleton), "forwardable" => %w(forwardable),
                       "securerandom" => %w(securerandom), "ostruct" => %w(ostruct),
                       "time" => %w(time time_formats), "logger" => %w(logger),
                       "fileutils" => %w(fileutils), "tempfile" => %w(tempfile), "open3" => %w(open3),
                       "optparse" => %w(optparse_switch optparse), "erb" => %w(erb),
                       "delegate" => %w(delegate), "pathname" => %w(pathname),
                       "weakref" => %w(weakref), "find" => %w(find),
                       "tsort" => %w(tsort), "observer" => %w(observer),
                       "abbrev" => %w(abbrev), "prime" => %w(prime),
                       "cgi_util" => %w(cgi_util), "cgi" => %w(cgi), "mutex_m" => %w(mutex_m),
                       "getoptlong" => %w(getoptlong), "pstore" => %w(pstore), "ipaddr" => %w(ipaddr),
                       "date" => %w(date date_format date_parse),
                       "csv" => %w(csv_parser csv_row csv_table csv),
                       "json_add_range" => %w(json_add_range),
                       "json_add_symbol" => %w(json_add_symbol),
                       "json_add_regexp" => %w(json_add_regexp),
                       "json_add_struct" => %w(json_add_struct),
                       "json_add_exception" => %w(json_add_exception),
                       "json_add_time" => %w(json_add_time),
                       "json_add_date" => %w(json_add_date),
                       "json_add_date_time" => %w(json_add_date_time),
                       "json_add_rational" => %w(json_add_rational),
                       "json_add_complex" => %w(json_add_complex),
                       "json_add_bigdecimal" => %w(json_add_bigdecimal),
                       "json_add_set" => %w(json_add_set),
                       "json_add_ostruct" => %w(json_add_ostruct),
                       "resolv" => %w(resolv resolv_message resolv_dns), "un" => %w(un))
end
