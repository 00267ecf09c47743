# URI::RFC2396_Parser (URI::Parser in CRuby 3.3) and its shared instances: Rack 2.2 escapes and
# unescapes paths with one and parses MockRequest's URIs with URI::Parser.new.

class URIParserTest < MnTest::Case
  def setup
    require "uri"
  end

  def test_parser_constants
    assert_same URI::RFC2396_Parser, URI::Parser
    assert_kind_of URI::RFC2396_Parser, URI::DEFAULT_PARSER
    assert_kind_of URI::RFC2396_Parser, URI::RFC2396_PARSER if RUBY_VERSION >= "3.3"   # uri 0.13.2 on
  end

  def test_escape
    pr = URI::RFC2396_Parser.new
    assert_equal "a%20b/%C3%BC?x=1&y=[]", pr.escape("a b/\u00fc?x=1&y=[]")
    assert_equal "a%20b%2Fc", pr.escape("a b/c", /[^a-z]/)
    assert_equal Encoding::US_ASCII, pr.escape("\u00e9").encoding
  end

  def test_unescape
    s = URI::RFC2396_Parser.new.unescape("a%20b%2Fc+%zz%C3%BC")
    assert_equal "a b/c+%zz\u00fc", s
    assert_equal Encoding::UTF_8, s.encoding
  end

  def test_parse
    u = URI::RFC2396_Parser.new.parse("http://ex.com:81/p?q=1#f")
    assert_equal [URI::HTTP, "ex.com", 81, "/p", "q=1", "f"], [u.class, u.host, u.port, u.path, u.query, u.fragment]
    u = URI::Parser.new.parse("/a/b?c=d")
    assert_equal [URI::Generic, nil, nil, "/a/b", "c=d", nil], [u.class, u.host, u.port, u.path, u.query, u.scheme]
    u = URI::Parser.new.parse("a/b")
    u.path = "/" + u.path
    assert_equal "/a/b", u.to_s
    assert_raise(URI::InvalidURIError) { URI::RFC2396_Parser.new.parse("http://a b/") }
  end

  # Rack::Lint checks SERVER_NAME and HTTP_HOST with URI.parse("http://#{host}/"): a missing host
  # parses (CRuby 3.3: host "", 3.1: nil), it is no error
  def test_http_without_a_host_parses
    u = URI.parse("http:///")
    assert_kind_of URI::HTTP, u
    assert_equal "", u.host.to_s
    assert_kind_of URI::HTTPS, URI.parse("https:///a")
    assert_equal "/x", URI.parse("http:/x").path
  end

  def test_split
    assert_equal ["http", "u", "h", "1", nil, "/p", nil, "q", "f"], URI::RFC2396_Parser.new.split("http://u@h:1/p?q#f")
  end
end
