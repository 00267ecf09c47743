# URI for http URLs (CRuby's uri library: URI(), URI.parse, URI::HTTP).

class URITest < MnTest::Case
  def setup
    require "uri"
  end

  def test_parse_splits_an_http_url
    u = URI.parse("http://user@example.test:8080/a/b?x=1&y=2#frag")
    assert_kind_of URI::HTTP, u
    assert_equal ["http", "user", "example.test", 8080, "/a/b", "x=1&y=2", "frag"],
                 [u.scheme, u.userinfo, u.host, u.port, u.path, u.query, u.fragment]
  end

  def test_default_ports
    assert_equal 80, URI("http://example.test/").port
    assert_equal 443, URI("https://example.test/").port
    assert_kind_of URI::HTTPS, URI("https://example.test/")
  end

  def test_request_uri
    assert_equal "/", URI("http://example.test").request_uri
    assert_equal "/p?q=1", URI("http://example.test/p?q=1").request_uri
  end

  def test_to_s_round_trips
    ["http://example.test/", "http://example.test:8080/a?b=c", "http://127.0.0.1:3000/x#y"].each do |s|
      assert_equal s, URI(s).to_s
    end
    assert_equal "http://example.test/", URI("http://example.test:80/").to_s
  end

  def test_ipv6_host
    u = URI("http://[::1]:8080/")
    assert_equal "[::1]", u.host
    assert_equal "::1", u.hostname
    assert_equal 8080, u.port
  end

  def test_uri_function_returns_a_uri_as_is
    u = URI("http://example.test/")
    assert_same u, URI(u)
  end

  def test_scheme_is_case_insensitive
    assert_equal "http", URI("HTTP://example.test/").scheme
  end

  def test_invalid_uris_raise
    assert_raise(URI::InvalidURIError) { URI.parse("http://exa mple.test/") }
    assert_raise(URI::InvalidURIError) { URI.parse("http://example.test:80x/") }
    assert_kind_of StandardError, URI::InvalidURIError.new
  end

  def test_other_schemes_are_generic
    u = URI("ftp://example.test/file")
    assert_kind_of URI::Generic, u
    refute u.is_a?(URI::HTTP)
  end

  def test_equality
    assert_equal URI("http://example.test/a"), URI("http://example.test/a")
  end

  def test_encode_www_form
    assert_equal "a=1&b=x+y&c=%26", URI.encode_www_form([["a", 1], ["b", "x y"], ["c", "&"]])
  end

  # URI::REGEXP::PATTERN's Strings (RFC 2396), which WEBrick builds its Host-header pattern from
  def test_regexp_pattern_host
    re = Regexp.new("\\A(#{URI::REGEXP::PATTERN::HOST})(?::(\\d+))?\\z", Regexp::NOENCODING)
    assert_equal [["127.0.0.1", "8080"]], "127.0.0.1:8080".scan(re)
    assert_equal [["example.com", nil]], "example.com".scan(re)
    assert_equal [["[::1]", "80"]], "[::1]:80".scan(re)
    assert_equal [], "bad host".scan(re)
    assert_same URI::RFC2396_REGEXP, URI::REGEXP
  end
end
