# SIGTERM while the main thread waits in an SSL read (OpenSSL::SSL::SSLSocket#gets on a server
# that never answers): the wait ends, the uncaught SignalException ends the process by SIGTERM
# (143) as CRuby does. The signal is sent once the handshake is done and the read is about to wait.
# expect-status: 143
# expect-no-stdout: unreachable
require "openssl"
require "socket"
require "tmpdir"
dir = Dir.mktmpdir("mnrb-openssl")
system("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
       "-keyout", "#{dir}/key.pem", "-out", "#{dir}/cert.pem", "-days", "1", "-subj", "/CN=localhost",
       out: File::NULL, err: File::NULL) or abort "openssl req failed"
key = OpenSSL::PKey.read(File.read("#{dir}/key.pem"))
cert = OpenSSL::X509::Certificate.new(File.read("#{dir}/cert.pem"))
File.delete("#{dir}/key.pem", "#{dir}/cert.pem")
Dir.rmdir(dir)
ctx = OpenSSL::SSL::SSLContext.new
ctx.cert = cert
ctx.key = key
tcp = TCPServer.new("127.0.0.1", 0)
server = OpenSSL::SSL::SSLServer.new(tcp, ctx)
Thread.new { s = server.accept; s.gets }           # accepts, then waits for a line that never comes
c = OpenSSL::SSL::SSLSocket.new(TCPSocket.new("127.0.0.1", tcp.addr[1]))
c.connect
Thread.new { Process.kill(:TERM, Process.pid) }
c.gets
puts "unreachable"
