# mnrb-net-http: a small Net::HTTP client (HTTP/1.1, keep-alive, Content-Length and chunked
# bodies), URI for http URLs, and MNRB::HTTPServer, a thread-per-connection HTTP/1.1 server for
# loopback tests and benchmarks. Plain Ruby on mruby-socket's TCPSocket/TCPServer; no TLS.
MRuby::Gem::Specification.new('mnrb-net-http') do |spec|
  spec.license = 'MIT'
  spec.author  = 'mnrb authors'
  spec.summary = "Net::HTTP, URI and an HTTP/1.1 server helper on mruby-socket"
  spec.add_dependency 'mruby-socket', core: 'mruby-socket'
  spec.add_dependency 'mruby-io',     core: 'mruby-io'
  spec.add_dependency 'mnrb-require'
  spec.add_dependency 'mnrb-thread'
  spec.add_dependency 'mnrb-stdlib'                                # Timeout (open_timeout), StringIO (URI.open)
  # in dependency order (mruby would take them alphabetically)
  spec.rbfiles = %w(uri net_http_header net_http_response net_http_request http_wire net_http
                    http_server open_uri provided).map { |f| "#{dir}/mrblib/#{f}.rb" }
end
