# A thread-per-connection echo server (for bench/run.sh's echo row; loopback only).
#   echo_server.rb PORTFILE
require 'socket' unless Object.const_defined?(:TCPServer)
srv = TCPServer.new('127.0.0.1', 0)
File.write(ARGV[0] + ".tmp", srv.addr[1].to_s)
File.rename(ARGV[0] + ".tmp", ARGV[0])
loop do
  c = srv.accept
  Thread.new(c) { |s| while (l = s.gets); s.write(l); end; s.close }
end
