# URI.open for http URLs (CRuby's open-uri), against MNRB::HTTPServer on loopback.

require "open-uri"
unless Object.const_defined?(:MNRB) && MNRB.const_defined?(:HTTPServer)   # CRuby: the helper's file
  require "net/http"
  require_relative "../../mrbgems/mnrb-net-http/lib/http_wire"
  require_relative "../../mrbgems/mnrb-net-http/lib/http_server"
end

class OpenURITest < MnTest::Case
  def setup
    @server = MNRB::HTTPServer.new do |req|
      case req.path
      when "/page" then [200, { "Content-Type" => "text/html; charset=UTF-8" }, "line1\nline2\n"]
      when "/moved" then [302, { "Location" => "/page" }, ""]
      else [404, {}, "missing"]
      end
    end.start
    @base = "http://127.0.0.1:#{@server.port}"
  end

  def teardown
    @server.shutdown
  end

  def test_open_returns_the_body_as_an_io
    io = URI.open("#{@base}/page")
    assert_equal ["line1\n", "line2\n"], io.readlines
    assert_equal ["200", "OK"], io.status
    assert_equal "text/html", io.content_type
    assert_equal "utf-8", io.charset
  end

  def test_open_with_a_block_returns_its_value
    assert_equal "line1\n", URI.open("#{@base}/page") { |f| f.gets }
  end

  def test_redirects_are_followed
    io = URI.open("#{@base}/moved")
    assert_equal "line1\nline2\n", io.read
    assert_equal "#{@base}/page", io.base_uri.to_s
  end

  def test_error_status_raises_http_error_with_the_body
    e = assert_raise(OpenURI::HTTPError) { URI.open("#{@base}/nothing") }
    assert_equal "404 Not Found", e.message
    assert_equal "missing", e.io.read
  end
end
