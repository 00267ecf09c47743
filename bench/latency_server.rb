# Seed 002's latency server: answers each line after 5 ms, a thread per connection.
#   latency_server.rb PORTFILE: writes its port to PORTFILE, serves until killed; LATENCY_S (env)
#   sets the delay (default 0.005).
require 'socket' unless Object.const_defined?(:TCPServer)
delay = (ENV["LATENCY_S"] || 0.005).to_f
srv = TCPServer.new('127.0.0.1', 0)
File.write(ARGV[0] + ".tmp", srv.addr[1].to_s)
File.rename(ARGV[0] + ".tmp", ARGV[0])
loop do
  c = srv.accept
  Thread.new(c) { |s| while (l = s.gets); sleep delay; s.write(l); end; s.close }
end
