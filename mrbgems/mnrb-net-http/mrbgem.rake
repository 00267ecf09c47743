# mnrb-net-http: a small Net::HTTP client (HTTP/1.1, keep-alive, Content-Length and chunked
# bodies), URI for http URLs, and MNRB::HTTPServer, a thread-per-connection HTTP/1.1 server for
# loopback tests and benchmarks. Plain Ruby on TCPSocket/TCPServer; https through mnrb-openssl.
#
# Nothing of it runs at boot: as in CRuby, `require "uri"`, `require "net/http"` (which brings
# MNRB::HTTPServer too) and `require "open-uri"` load it (mnrb-require's mnrb_feature.h). Its Ruby
# code (lib/) is compiled into static bytecode that every state shares (mnrb-require/feature_build.rb).
require_relative "../mnrb-require/feature_build"

MRuby::Gem::Specification.new('mnrb-net-http') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "Net::HTTP, URI and an HTTP/1.1 server helper"
  spec.add_dependency 'mnrb-io'                                    # sockets (require "socket")
  spec.add_dependency 'mruby-io',     core: 'mruby-io'
  spec.add_dependency 'mnrb-require'
  spec.add_dependency 'mnrb-thread'
  spec.add_dependency 'mnrb-stdlib'                                # Timeout (open_timeout), StringIO (URI.open)

  # each feature's files, in the order they run (src/features.c registers them)
  spec.rbfiles = []
  MNRBFeatures.compile(spec, "mnrb_net_http",
                       "uri"      => %w(uri uri_ops uri_regexp uri_parser),
                       "net_http" => %w(net_http_header net_http_response net_http_request http_wire net_http http_server),
                       "open_uri" => %w(open_uri))
end
