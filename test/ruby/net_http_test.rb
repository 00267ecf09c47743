# Net::HTTP against MNRB::HTTPServer on loopback, client and server in one process (CRuby's
# net/http docs). On CRuby the same tests run CRuby's Net::HTTP against the server helper's Ruby
# file (mrbgems/mnrb-net-http), which checks both sides against the reference.

require "socket"
require "net/http"
unless Object.const_defined?(:MNRB) && MNRB.const_defined?(:HTTPServer)
  require_relative "../../mrbgems/mnrb-net-http/lib/http_wire"
  require_relative "../../mrbgems/mnrb-net-http/lib/http_server"
end

class NetHTTPTest < MnTest::Case
  HOST = "127.0.0.1"

  def setup
    @connections = Queue.new   # a serving thread per connection: one entry per request
    @server = MNRB::HTTPServer.new(host: HOST, port: 0) { |req| handle(req) }.start
    @port = @server.port
  end

  def teardown
    @server.shutdown
  end

  def handle(req)
    @connections << Thread.current
    case req.path
    when "/hello" then [200, { "Content-Type" => "text/plain", "X-Custom" => "yes" }, "hello"]
    when "/path" then [200, {}, "#{req.request_method} #{req.path} #{req.query}"]
    when "/chunked" then [200, {}, ["first,", "second,", "third"].each]
    when "/big" then [200, {}, "x" * 100_000]
    when "/echo" then [201, {}, req.body]
    when "/close" then [200, { "Connection" => "close" }, "closing"]
    when "/slow" then sleep(req.query.to_f); [200, {}, "slow"]
    when "/boom" then raise "handler failure"
    when "/empty" then [204, {}, ""]
    else [404, {}, "not found"]
    end
  end

  def uri(path)
    URI("http://#{HOST}:#{@port}#{path}")
  end

  def test_get_response_with_host_path_port
    res = Net::HTTP.get_response(HOST, "/hello", @port)
    assert_equal "200", res.code
    assert_equal "OK", res.message
    assert_equal "hello", res.body
  end

  def test_get_response_with_uri
    res = Net::HTTP.get_response(uri("/path?a=1"))
    assert_equal "GET /path a=1", res.body
  end

  def test_get_returns_the_body
    assert_equal "hello", Net::HTTP.get(HOST, "/hello", @port)
    assert_equal "hello", Net::HTTP.get(uri("/hello"))
  end

  def test_headers_are_case_insensitive
    res = Net::HTTP.get_response(HOST, "/hello", @port)
    assert_equal "text/plain", res["Content-Type"]
    assert_equal "text/plain", res["content-type"]
    assert_equal "yes", res["x-custom"]
    assert_equal ["5"], res.to_hash["content-length"]
    assert_nil res["x-absent"]
  end

  def test_response_classes_by_status
    assert_kind_of Net::HTTPOK, Net::HTTP.get_response(HOST, "/hello", @port)
    assert_kind_of Net::HTTPSuccess, Net::HTTP.get_response(HOST, "/hello", @port)
    missing = Net::HTTP.get_response(HOST, "/missing", @port)
    assert_equal "404", missing.code
    assert_kind_of Net::HTTPNotFound, missing
    assert_kind_of Net::HTTPClientError, missing
    refute missing.is_a?(Net::HTTPSuccess)
    assert_equal "not found", missing.body
  end

  def test_handler_failure_is_a_500
    res = Net::HTTP.get_response(HOST, "/boom", @port)
    assert_equal "500", res.code
    assert_kind_of Net::HTTPServerError, res
  end

  def test_value_raises_for_an_error_status
    e = assert_raise(Net::HTTPClientException) { Net::HTTP.get_response(HOST, "/missing", @port).value }
    assert_equal "404", e.response.code
    assert_nil Net::HTTP.get_response(HOST, "/hello", @port).value
  end

  def test_chunked_body
    res = Net::HTTP.get_response(HOST, "/chunked", @port)
    assert_equal "chunked", res["transfer-encoding"]
    assert_equal "first,second,third", res.body
  end

  def test_large_content_length_body
    body = Net::HTTP.get(HOST, "/big", @port)
    assert_equal 100_000, body.bytesize
  end

  def test_no_content
    res = Net::HTTP.get_response(HOST, "/empty", @port)
    assert_equal "204", res.code
    assert_kind_of Net::HTTPNoContent, res
    assert_nil res.body
  end

  def test_start_returns_the_block_value_and_closes
    http = nil
    v = Net::HTTP.start(HOST, @port) { |h| http = h; h.get("/hello").body }
    assert_equal "hello", v
    refute http.started?
  end

  def test_start_keeps_one_connection_alive
    bodies = Net::HTTP.start(HOST, @port) do |http|
      [http.get("/hello").body, http.get("/path").body, http.get("/chunked").body]
    end
    assert_equal ["hello", "GET /path ", "first,second,third"], bodies
    served_by = 3.times.map { @connections.pop }
    assert_equal 1, served_by.uniq.size, "all three requests on one connection"
  end

  def test_start_reconnects_after_the_server_closes
    bodies = Net::HTTP.start(HOST, @port) do |http|
      [http.get("/close").body, http.get("/hello").body]
    end
    assert_equal ["closing", "hello"], bodies
    assert_equal 2, 2.times.map { @connections.pop }.uniq.size
  end

  def test_request_get_yields_the_response
    yielded = nil
    res = Net::HTTP.start(HOST, @port) { |http| http.request_get("/hello") { |r| yielded = r } }
    assert_same res, yielded
    assert_equal "hello", res.body
  end

  def test_post_sends_a_body
    res = Net::HTTP.start(HOST, @port) { |http| http.post("/echo", "payload") }
    assert_equal "201", res.code
    assert_equal "payload", res.body
  end

  def test_head_has_no_body
    res = Net::HTTP.start(HOST, @port) { |http| http.head("/hello") }
    assert_equal "200", res.code
    assert_nil res.body
    assert_equal "5", res["content-length"]
  end

  def test_request_with_a_request_object
    req = Net::HTTP::Get.new("/path?q=2")
    res = Net::HTTP.start(HOST, @port) { |http| http.request(req) }
    assert_equal "GET /path q=2", res.body
  end

  def test_connection_refused
    probe = TCPServer.new(HOST, 0)
    port = probe.addr[1]
    probe.close
    klass = Object.const_defined?(:SystemCallError) ? SystemCallError : StandardError
    assert_raise(klass) { Net::HTTP.get_response(HOST, "/", port) }
  end

  def test_read_timeout
    http = Net::HTTP.new(HOST, @port)
    http.read_timeout = 0.1
    assert_raise(Net::ReadTimeout) { http.start { http.get("/slow?2") } }
  end

  # Seed 003's pattern: a thread per request, each gets its own answer.
  def test_threads_each_get_their_response
    threads = 20.times.map do |i|
      Thread.new { Net::HTTP.get_response(HOST, "/path?#{i}", @port) }
    end
    threads.each_with_index do |t, i|
      res = t.value
      assert_equal "200", res.code
      assert_equal "GET /path #{i}", res.body
    end
  end

  # Seed 001's point: threads overlap their waits for the server.
  def test_threads_overlap_slow_requests
    t0 = MnTest.now
    10.times.map { Thread.new { Net::HTTP.get(HOST, "/slow?0.3", @port) } }.each(&:join)
    elapsed = MnTest.now - t0
    assert elapsed < 2.0, "10 requests of 0.3 s in 10 threads took #{elapsed} s (serially: 3 s)"
  end
end

class HTTPServerTest < MnTest::Case
  HOST = "127.0.0.1"

  def raw_exchange(port, request)
    s = TCPSocket.new(HOST, port)
    s.write(request)
    s.read
  ensure
    s.close if s && !s.closed?
  end

  def test_port_zero_picks_a_free_port
    server = MNRB::HTTPServer.new { |_| [200, {}, "ok"] }
    assert server.port > 0
    server.shutdown
  end

  def test_needs_a_handler
    assert_raise(ArgumentError) { MNRB::HTTPServer.new }
  end

  def test_http_10_request_gets_its_answer_and_a_close
    server = MNRB::HTTPServer.new { |req| [200, {}, "v#{req.http_version}"] }.start
    out = raw_exchange(server.port, "GET / HTTP/1.0\r\n\r\n")
    assert out.start_with?("HTTP/1.1 200 OK\r\n"), out
    assert out.include?("Connection: close\r\n"), out
    assert out.end_with?("\r\n\r\nv1.0"), out
  ensure
    server.shutdown if server
  end

  def test_malformed_request_is_a_400
    server = MNRB::HTTPServer.new { |_| [200, {}, "ok"] }.start
    out = raw_exchange(server.port, "NONSENSE\r\n\r\n")
    assert out.start_with?("HTTP/1.1 400 Bad Request\r\n"), out
  ensure
    server.shutdown if server
  end

  def test_request_headers_and_body_reach_the_handler
    seen = Queue.new
    server = MNRB::HTTPServer.new do |req|
      seen << [req.request_method, req.path, req.query, req["x-test"], req.body, req.headers["host"]]
      [200, {}, "ok"]
    end.start
    raw_exchange(server.port, "PUT /p?q=1 HTTP/1.1\r\nHost: h\r\nX-Test: t\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
    assert_equal ["PUT", "/p", "q=1", "t", "abc", "h"], seen.pop
  ensure
    server.shutdown if server
  end

  def test_shutdown_closes_idle_keep_alive_connections_and_their_threads
    before = Thread.list.size
    server = MNRB::HTTPServer.new { |_| [200, {}, "ok"] }.start
    s = TCPSocket.new(HOST, server.port)
    s.write("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
    assert s.gets.start_with?("HTTP/1.1 200")
    wait_until("the connection to be served") { server.connections == 1 }
    server.shutdown
    assert_equal 0, server.connections
    wait_until("server threads to end") { Thread.list.size <= before }
    s.close
  end
end
