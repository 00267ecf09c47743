# Seed 003's threaded check of servers with Net::HTTP, run against a loopback server (the seed
# asks www.google.com 100 times; here 100 requests go to 127.0.0.1).
# expect-stdout: 127.0.0.1
# expect-stdout: 200
# expect-stdout: checked 100
require 'benchmark'
require 'net/http'
unless Object.const_defined?(:MNRB) && MNRB.const_defined?(:HTTPServer)   # CRuby: the helper's file
  require_relative "../../../mrbgems/mnrb-net-http/lib/http_wire"
  require_relative "../../../mrbgems/mnrb-net-http/lib/http_server"
end

server = MNRB::HTTPServer.new { |_req| [200, { "Content-Type" => "text/html" }, "<html></html>"] }.start
PORT = server.port
$lines = Queue.new

def check servers
    threads = []

    servers.each do |server|
        threads << Thread.new {
            response = Net::HTTP.get_response(server, '/', PORT)
            $lines << [server, response.code]
        }
    end

    threads.each { |thread| thread.join }
end

SERVERS = Array.new(100, "127.0.0.1")

puts Benchmark.measure {check(SERVERS)}
lines = $lines.size.times.map { $lines.pop }
puts lines.first
puts "checked #{lines.count { |_, code| code == "200" }}"
server.shutdown
