# Seed 001's I/O-bound sweep, as an mnrb-tune unit: one request on its own connection to a loopback
# server that answers after 50 ms (bench/latency_server.rb; its port in $MNRB_TUNE_PORTFILE).
require "socket" unless Object.const_defined?(:TCPSocket)
PORT = File.read(ENV["MNRB_TUNE_PORTFILE"]).to_i

Tune.work do
  s = TCPSocket.new("127.0.0.1", PORT)
  s.write("x\n")
  s.gets
  s.close
end
