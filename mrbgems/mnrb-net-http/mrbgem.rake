# mnrb-net-http: a small Net::HTTP client (HTTP/1.1, keep-alive, Content-Length and chunked
# bodies), URI for http URLs, and MNRB::HTTPServer, a thread-per-connection HTTP/1.1 server for
# loopback tests and benchmarks. Plain Ruby on mruby-socket's TCPSocket/TCPServer; no TLS.
#
# Nothing of it runs at boot: as in CRuby, `require "uri"`, `require "net/http"` (which brings
# MNRB::HTTPServer too) and `require "open-uri"` load it (mnrb-require's mnrb_feature.h). Its Ruby
# code (lib/) is compiled here into static bytecode that every state shares (src/features.c).
MRuby::Gem::Specification.new('mnrb-net-http') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "Net::HTTP, URI and an HTTP/1.1 server helper on mruby-socket"
  spec.add_dependency 'mruby-socket', core: 'mruby-socket'
  spec.add_dependency 'mruby-io',     core: 'mruby-io'
  spec.add_dependency 'mnrb-require'
  spec.add_dependency 'mnrb-thread'
  spec.add_dependency 'mnrb-stdlib'                                # Timeout (open_timeout), StringIO (URI.open)

  # each feature's files, in the order they run
  features = {
    "uri"      => %w(uri),
    "net_http" => %w(net_http_header net_http_response net_http_request http_wire net_http http_server),
    "open_uri" => %w(open_uri),
  }
  spec.rbfiles = []
  code = "#{build_dir}/features_code.c"
  sources = features.values.flatten.map { |f| "#{dir}/lib/#{f}.rb" }
  file code => [build.mrbcfile, __FILE__, *sources] do |t|
    mkdir_p File.dirname(t.name)
    File.open(t.name, "w") do |out|
      out.puts "/* Generated from lib/ by mrbgem.rake. */"
      out.puts "#pragma GCC diagnostic ignored \"-Wunused-function\"   /* each feature's empty *_init_syms */"
      features.each do |name, files|
        build.mrbc.run out, files.map { |f| "#{dir}/lib/#{f}.rb" }, "mnrb_net_http_#{name}", cdump: true, static: false
      end
    end
    # The bytecode is shared by every state: no symbol may need interning per state.
    if File.read(t.name).include?("mrb_intern")
      rm_f t.name
      fail "#{t.name}: lib/ uses a symbol outside the pre-interned table (a global variable?)"
    end
  end
  spec.objs << objfile("#{build_dir}/features_code")
end
