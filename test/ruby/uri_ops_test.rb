# URI beyond parsing, as CRuby's uri: URI.join / merge / + (RFC 3986 5.4's examples), setters,
# user/password, build, origin, normalize, and the form codecs. Expectations run on CRuby 3.3.8
# (origin and the uri_component codecs are 3.2's) and 3.1.
require "uri"

class UriOpsTest < MnTest::Case
  RFC3986 = {
    "g:h" => "g:h", "g" => "http://a/b/c/g", "./g" => "http://a/b/c/g", "g/" => "http://a/b/c/g/",
    "/g" => "http://a/g", "//g" => "http://g", "?y" => "http://a/b/c/d;p?y", "g?y" => "http://a/b/c/g?y",
    "#s" => "http://a/b/c/d;p?q#s", "g#s" => "http://a/b/c/g#s", ";x" => "http://a/b/c/;x",
    "." => "http://a/b/c/", "./" => "http://a/b/c/", ".." => "http://a/b/", "../g" => "http://a/b/g",
    "../.." => "http://a/", "../../g" => "http://a/g", "../../../g" => "http://a/g", "/./g" => "http://a/g",
    "/../g" => "http://a/g", "g." => "http://a/b/c/g.", "..g" => "http://a/b/c/..g", "./../g" => "http://a/b/g",
    "./g/." => "http://a/b/c/g/", "g/./h" => "http://a/b/c/g/h", "g/../h" => "http://a/b/c/h",
    "g;x=1/../y" => "http://a/b/c/y",
  }

  def test_join_rfc3986_examples
    RFC3986.each { |ref, want| assert_equal want, URI.join("http://a/b/c/d;p?q", ref).to_s, ref }
  end

  def test_join_and_merge
    assert_equal "http://x/a/c", URI.join("http://x/a/", "b", "c").to_s
    assert_equal "http://x/c", (URI("http://x/a/b") + "../c").to_s
    assert_equal "http://y/z", URI("http://x/a").merge(URI("http://y/z")).to_s
    assert_equal "http://h/a?y", URI.join("http://h/a?x", "?y").to_s
    assert_equal "http://h/a#f", URI.join("http://h/a#f", "").to_s
    assert_equal "both URI are relative", assert_raise(URI::BadURIError) { URI("a/b").merge("c") }.message
  end

  def test_setters_and_userinfo
    u = URI("http://u:p@h:81/x?q#f")
    assert_equal ["u", "p"], [u.user, u.password]
    u = URI("http://h/x")
    u.query = "a=1"
    u.path = "/y"
    u.port = 8080
    u.host = "k"
    u.fragment = "z"
    assert_equal "http://k:8080/y?a=1#z", u.to_s
  end

  def test_build_normalize_origin
    assert_equal "http://h/p?a=1", URI::HTTP.build(host: "h", path: "/p", query: "a=1").to_s
    assert_equal "https://h:444/p", URI::HTTPS.build(host: "h", port: 444, path: "/p").to_s
    assert_equal "http://ex.com/", URI("HTTP://EX.com").normalize.to_s
    assert_equal false, URI("http://h/").relative?
    return if RUBY_VERSION < "3.2"
    assert_equal "http://h:81", URI("http://u:p@h:81/x").origin
    assert_equal "http://h", URI("http://h").origin
  end

  def test_www_form
    assert_equal [["a", "1"], ["b", "x y"], ["c", ""], ["", ""], ["d", "!"]], URI.decode_www_form("a=1&b=x+y&c&&d=%21")
    assert_equal [["a", "1"]], URI.decode_www_form("a=1&")
    assert_equal [], URI.decode_www_form("")
    assert_equal "x y!\u3042", URI.decode_www_form_component("x+y%21%E3%81%82")
    assert_equal Encoding::UTF_8, URI.decode_www_form_component("x").encoding
    assert_equal "invalid %-encoding (%zz)", assert_raise(ArgumentError) { URI.decode_www_form_component("%zz") }.message
    assert_equal "a=1&a=2&b&c=x+y", URI.encode_www_form(a: [1, 2], b: nil, c: "x y")
  end

  def test_uri_component
    return if RUBY_VERSION < "3.2"
    assert_equal "x+y ", URI.decode_uri_component("x+y%20")
    assert_equal "a%20b%2Bc", URI.encode_uri_component("a b+c")
  end
end
