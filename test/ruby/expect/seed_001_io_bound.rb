# Seed 001's I/O-bound benchmark (30 fetches over 1..30 threads), against a loopback server that
# answers after 20 ms instead of a real web site. CRuby 3 has no Kernel#open for URLs, so the
# fetch is Net::HTTP.get.
# expect-stdout: with 1 threads
# expect-stdout: with 30 threads
# expect-stdout: fetched 240
require 'benchmark'
require 'net/http'
unless Object.const_defined?(:MNRB) && MNRB.const_defined?(:HTTPServer)   # CRuby: the helper's file
  require_relative "../../../mrbgems/mnrb-net-http/lib/http_wire"
  require_relative "../../../mrbgems/mnrb-net-http/lib/http_server"
end

server = MNRB::HTTPServer.new { |_req| sleep 0.02; [200, {}, "page"] }.start
URL = "http://127.0.0.1:#{server.port}/"
ITERATIONS = 30
$fetched = Queue.new

def fetch_url(thread_count)
  threads = []

  thread_count.times do
    threads << Thread.new do
      fetches_per_thread = ITERATIONS / thread_count

      fetches_per_thread.times do
        $fetched << Net::HTTP.get(URI(URL))
      end
    end
  end

  threads.each(&:join)
end

Benchmark.bm(20) do |bm|
  [1, 2, 3, 5, 6, 10, 15, 30].each do |thread_count|
    bm.report("with #{thread_count} threads") do
      fetch_url(thread_count)
    end
  end
end
puts "fetched #{$fetched.size}"
server.shutdown
