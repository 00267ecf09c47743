# cgi: CRuby's CGI class as far as scripts use it outside a web server: the escapes of cgi/util
# (CGI.escape, CGI.escapeHTML...), which `require "cgi"` loads. Handling a request (CGI.new reading
# the environment and standard input, its HTML generation) is not in mnrb: CGI.new says so.

class CGI
  CR = "\015"
  LF = "\012"
  EOL = CR + LF

  def initialize(*)
    raise NotImplementedError, "CGI request handling (CGI.new) is not available in mnrb; CGI.escape, CGI.escapeHTML and the other CGI::Util methods are"
  end
end
