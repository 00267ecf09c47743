# require "resolv" as CRuby's: Resolv::Hosts over a hosts file, Resolv::DNS::Message encoding
# (the bytes CRuby 3.3.8 and Debian's 3.1 encode, name compression included) and decoding, names,
# IPv4/IPv6 forms, and Resolv::DNS asking a DNS server (a UDP server in this test, on 127.0.0.1:
# no network needed) for A, MX and PTR records, with NXDOMAIN and an unanswered query.
require "resolv"
require "socket"
require "tmpdir"

class ResolvTest < MnTest::Case
  Message = Resolv::DNS::Message
  Name = Resolv::DNS::Name
  IN = Resolv::DNS::Resource::IN

  HOSTS = <<~H
    # comment line
    127.0.0.1   localhost
    192.0.2.10  web.example web   # trailing comment
    192.0.2.11  web.example
    ::1         ip6-localhost ip6-loopback
    bogus       not-an-address
  H

  def with_hosts
    Dir.mktmpdir do |dir|
      path = File.join(dir, "hosts")
      File.write(path, HOSTS)
      yield Resolv::Hosts.new(path), path
    end
  end

  # CRuby's Hosts opens its file at the first lookup and lets the error out (Errno::ENOENT)
  def test_hosts_with_a_missing_file_raises_enoent
    Dir.mktmpdir do |dir|
      h = Resolv::Hosts.new(File.join(dir, "none"))
      assert_raise(Errno::ENOENT) { h.getaddress("localhost") }
      assert_raise(Errno::ENOENT) { h.getaddresses("localhost") }
    end
  end

  def test_hosts_lookups
    with_hosts do |h, path|
      assert_equal "192.0.2.11", h.getaddress("web.example")          # the later line first
      assert_equal ["192.0.2.11", "192.0.2.10"], h.getaddresses("web.example")
      assert_equal ["192.0.2.10"], h.getaddresses("web")
      assert_equal "::1", h.getaddress("ip6-loopback")
      assert_equal "web.example", h.getname("192.0.2.10")
      assert_equal ["web.example", "web"], h.getnames("192.0.2.10")
      assert_equal ["bogus"], h.getaddresses("not-an-address")           # CRuby does not check
      e = assert_raise(Resolv::ResolvError) { h.getaddress("nowhere") }
      assert_equal "#{path} has no name: nowhere", e.message
      e = assert_raise(Resolv::ResolvError) { h.getname("10.9.9.9") }
      assert_equal "#{path} has no address: 10.9.9.9", e.message
    end
  end

  def test_resolver_tries_hosts_first_and_passes_addresses_through
    with_hosts do |h, _|
      r = Resolv.new([h])
      assert_equal "192.0.2.10", r.getaddresses("web.example").last
      assert_equal "10.1.2.3", r.getaddress("10.1.2.3")
      assert_equal "no address for nowhere", assert_raise(Resolv::ResolvError) { r.getaddress("nowhere") }.message
      assert_equal "no name for 10.9.9.9", assert_raise(Resolv::ResolvError) { r.getname("10.9.9.9") }.message
    end
    assert_equal "127.0.0.1", Resolv.getaddress("127.0.0.1")
    assert_kind_of Resolv, Resolv::DefaultResolver
  end

  def test_encode_question_matches_cruby
    m = Message.new(0x1234)
    m.rd = 1
    m.add_question("www.example.com", IN::A)
    assert_equal "\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x03www\x07example\x03com\x00\x00\x01\x00\x01".b, m.encode.b
  end

  def sample_reply
    m = Message.new(7)
    m.qr = 1
    m.aa = 1
    m.add_question(Name.create("example.com."), IN::MX)
    m.add_answer("example.com.", 300, IN::MX.new(10, Name.create("mail.example.com.")))
    m.add_answer("www.example.com.", 60, IN::A.new("192.0.2.1"))
    m.add_answer("www.example.com.", 60, IN::AAAA.new("2001:db8::1"))
    m.add_answer("example.com.", 60, IN::TXT.new("hello", "world"))
    m.add_answer("alias.example.com.", 60, IN::CNAME.new(Name.create("www.example.com.")))
    m.add_authority("example.com.", 3600, IN::NS.new(Name.create("ns.example.com.")))
    m.add_answer("1.2.0.192.in-addr.arpa.", 60, IN::PTR.new(Name.create("www.example.com.")))
    m.add_answer("example.com.", 60, IN::SOA.new(Name.create("ns.example.com."), Name.create("admin.example.com."), 1, 2, 3, 4, 5))
    m
  end

  # printed by CRuby: compressed names point at the first "example.com" (offset 12) and at "www..." (50)
  SAMPLE_HEX = "000784000001000700010000076578616d706c6503636f6d00000f0001c00c000f00010000012c0009000a046d61696cc00c03777777c00c000100010000003c0004c0000201c032001c00010000003c001020010db8000000000000000000000001c00c001000010000003c000c0568656c6c6f05776f726c6405616c696173c00c000500010000003c0002c032013101320130033139320769" \
               "6e2d61646472046172706100000c00010000003c0002c032c00c000600010000003c002102" \
               "6e73c00c0561646d696ec00c0000000100000002000000030000000400000005c00c000200010000" \
               "0e100002c0be"

  def test_encode_answers_matches_cruby
    assert_equal SAMPLE_HEX, sample_reply.encode.unpack1("H*")
  end

  def test_decode_round_trip
    d = Message.decode([SAMPLE_HEX].pack("H*"))
    assert_equal [7, 1, 0, 1, 0, 0, 0, 0], [d.id, d.qr, d.opcode, d.aa, d.tc, d.rd, d.ra, d.rcode]
    assert_equal [[Name.create("example.com."), IN::MX]], d.question
    got = []
    d.each_answer { |n, ttl, data| got << [n.to_s, ttl, data.class] }
    assert_equal [["example.com", 300, IN::MX], ["www.example.com", 60, IN::A], ["www.example.com", 60, IN::AAAA],
                  ["example.com", 60, IN::TXT], ["alias.example.com", 60, IN::CNAME], ["1.2.0.192.in-addr.arpa", 60, IN::PTR],
                  ["example.com", 60, IN::SOA]], got
    mx = d.answer[0][2]
    assert_equal [true, 300, 10, "mail.example.com"], [mx == IN::MX.new(10, Name.create("mail.example.com.")), mx.ttl, mx.preference, mx.exchange.to_s]
    assert_equal ["192.0.2.1", "2001:db8::1"], [d.answer[1][2].address.to_s, d.answer[2][2].address.to_s]
    assert_equal [["hello", "world"], "helloworld"], [d.answer[3][2].strings, d.answer[3][2].data]
    assert_equal [5, "admin.example.com"], [d.answer[6][2].minimum, d.answer[6][2].rname.to_s]
    assert_equal [["example.com", 3600, "ns.example.com"]], d.authority.map { |n, t, r| [n.to_s, t, r.name.to_s] }
    assert_equal SAMPLE_HEX, d.encode.unpack1("H*")
    assert_raise(Resolv::DNS::DecodeError) { Message.decode("\x00") }
  end

  def test_names_and_addresses
    assert_equal [true, false, ["a", "b"], true], [Name.create("www.Example.com.") == Name.create("www.example.com."),
      Name.create("www.example.com").absolute?, Name.create("a.b.").to_a.map(&:to_s),
      Name.create("www.example.com.").subdomain_of?(Name.create("example.com."))]
    assert_equal ["#<Resolv::DNS::Name: www.example.com.>", "#<Resolv::IPv4 1.2.3.4>"], [Name.create("www.example.com.").inspect, Resolv::IPv4.create("1.2.3.4").inspect]
    assert_equal "1.2.0.192.in-addr.arpa", Resolv::IPv4.create("192.0.2.1").to_name.to_s
    assert_equal ["2001:db8::1", "::", "1::2:0:0:0:3", "::ffff:102:304"],
      ["2001:db8::1", "::", "1:0:0:2:0:0:0:3", "::ffff:1.2.3.4"].map { |s| Resolv::IPv6.create(s).to_s }
    assert_equal "\xC0\x00\x02\x01".b, Resolv::IPv4.create("192.0.2.1").address
    assert_equal [true, true, false], [Resolv::IPv4::Regex.match?("1.2.3.4"), Resolv::IPv6::Regex.match?("::1"), Resolv::AddressRegex.match?("x")]
    e = assert_raise(ArgumentError) { Resolv::IPv4.create("1.2.3.256") }
    assert_equal 'cannot interpret as IPv4 address: "1.2.3.256"', e.message
    assert_equal [1, 1, 28, 15, 33], [IN::A::TypeValue, IN::A::ClassValue, IN::AAAA::TypeValue, IN::MX::TypeValue, IN::SRV::TypeValue]
  end

  # A DNS server answering one question per datagram from a table; names it does not know get
  # NXDOMAIN, "silent.test." gets no answer at all.
  def with_dns_server
    server = UDPSocket.new
    server.bind("127.0.0.1", 0)
    port = server.addr[1]
    th = Thread.new do
      loop do
        data, from = server.recvfrom(512)
        q = Message.decode(data)
        name, type = q.question.first
        next if name.to_s == "silent.test"
        r = Message.new(q.id)
        r.qr = 1
        r.rd = q.rd
        r.add_question(name, type)
        case [name.to_s, type]
        when ["host.test", IN::A] then r.add_answer(name, 60, IN::A.new("192.0.2.7"))
        when ["alias.test", IN::A]
          r.add_answer(name, 60, IN::CNAME.new(Name.create("host.test.")))
          r.add_answer("host.test.", 60, IN::A.new("192.0.2.7"))
        when ["host.test", IN::MX] then r.add_answer(name, 60, IN::MX.new(5, Name.create("mx.test.")))
        when ["7.2.0.192.in-addr.arpa", IN::PTR] then r.add_answer(name, 60, IN::PTR.new(Name.create("host.test.")))
        else r.rcode = Resolv::DNS::RCode::NXDomain
        end
        server.send(r.encode, 0, from[3], from[1])
      end
    end
    dns = Resolv::DNS.new(nameserver_port: [["127.0.0.1", port]], search: [], ndots: 1)
    yield dns
  ensure
    th&.kill
    th&.join
    server&.close
  end

  def test_dns_queries_a_server
    with_dns_server do |dns|
      assert_equal "192.0.2.7", dns.getaddress("host.test.").to_s
      assert_equal ["192.0.2.7"], dns.getaddresses("alias.test.").map(&:to_s)
      mx = dns.getresource("host.test.", IN::MX)
      assert_equal [5, "mx.test"], [mx.preference, mx.exchange.to_s]
      assert_equal "host.test", dns.getname("192.0.2.7").to_s
      assert_equal [], dns.getresources("missing.test.", IN::A)
      e = assert_raise(Resolv::ResolvError) { dns.getaddress("missing.test.") }
      assert_equal "DNS result has no information for missing.test.", e.message
      dns.timeouts = 0.2
      assert_equal [], dns.getaddresses("silent.test.")
    end
  end
end
