# require "cgi/util" (and "cgi") as CRuby's: URL and HTML escaping as CGI's module functions and
# CGI::Util's methods, on bytes, keeping the argument's encoding. Expected values from CRuby 3.3.8
# (ruby 3.1 lacks escapeURIComponent's snake-case aliases only).
require "cgi/util"

class CgiUtilTest < MnTest::Case
  def test_url_escapes
    assert_equal "a+b%26c%2Fd~e%2A-._%2B%C3%A9%0A", CGI.escape("a b&c/d~e*-._+é\n")
    assert_equal "a b&c/d~%zz%4", CGI.unescape("a+b%26c%2Fd%7e%zz%4")
    assert_equal "あ", CGI.unescape("%E3%81%82")
    assert_equal Encoding::UTF_8, CGI.unescape("%E3%81%82").encoding
    assert_equal Encoding::BINARY, CGI.escape("x".b).encoding
    assert_equal "a%20b%2Bc%2F%C3%A9", CGI.escapeURIComponent("a b+c/é")
    assert_equal "a+b c", CGI.unescapeURIComponent("a+b%20c")
  end

  def test_html_escapes
    assert_equal "&lt;a href=&#39;x&#39;&gt;&amp;&quot;", CGI.escapeHTML("<a href='x'>&\"")
    assert_equal "&lt;", CGI.escape_html("<")
    assert_equal "&lt;", CGI.h("<")
    assert_equal "<'A&\">'A&nbsp;&#xZZ;&#1114112;\u0000&amp",
                 CGI.unescapeHTML("&lt;&#39;&#x41;&amp;&quot;&gt;&apos;&#65;&nbsp;&#xZZ;&#1114112;&#0;&amp")
    assert_equal "<", CGI.unescape_html("&lt;")
    refute CGI.escapeHTML("abc").frozen?
    assert_equal Encoding::UTF_8, CGI.escapeHTML("é<").encoding
  end

  def test_elements_dates_and_pretty
    assert_equal "<BR>&lt;A HREF=&quot;url&quot;&gt;&lt;/A&gt;", CGI.escapeElement('<BR><A HREF="url"></A>', "A", "IMG")
    assert_equal "&lt;BR&gt;<A HREF=\"url\"></A>",
                 CGI.unescapeElement(CGI.escapeHTML('<BR><A HREF="url"></A>'), ["A", "IMG"])
    assert_equal "Thu, 01 Jan 1970 00:00:00 GMT", CGI.rfc1123_date(Time.at(0).utc)
    assert_equal "<HTML>\n  <BODY>\n  </BODY>\n</HTML>\n", CGI.pretty("<HTML><BODY></BODY></HTML>")
  end

  def test_bad_arguments
    e = assert_raise(TypeError) { CGI.escape(:sym) }
    assert_equal "no implicit conversion of Symbol into String", e.message
    e = assert_raise(TypeError) { CGI.escapeHTML(nil) }
    assert_equal "no implicit conversion of nil into String", e.message
  end

  def test_a_module_to_include
    o = Object.new.extend(CGI::Util)
    assert_equal "&amp;", o.escapeHTML("&")
    assert_equal "a+b", o.escape("a b")
    assert_include CGI::Util.instance_methods, :unescape_element
    assert_kind_of Class, CGI
    assert_kind_of Module, CGI::Escape
  end
end
