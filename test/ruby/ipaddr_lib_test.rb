# require "ipaddr" as CRuby's IPAddr (helper compat3): parsing IPv4 and IPv6 (compressed, embedded
# IPv4, brackets, zones, prefixes and masks), the compressed and full text forms, networks
# (include?, to_range, mask), arithmetic, the mapped/compatible conversions, the predicates and
# CRuby's errors. Expectations checked on CRuby 3.1 and 3.3.8.
require "ipaddr"

class IPAddrLibTest < MnTest::Case
  def test_ipv4_network
    a = IPAddr.new("192.168.2.0/24")
    assert_equal "#<IPAddr: IPv4:192.168.2.0/255.255.255.0>", a.inspect
    assert_equal ["192.168.2.0", 3232236032, Socket::AF_INET, 24, true, false],
                 [a.to_s, a.to_i, a.family, a.prefix, a.ipv4?, a.ipv6?]
    assert a.include?(IPAddr.new("192.168.2.77"))
    refute a.include?("192.168.3.1")
    assert a === "192.168.2.5"
    assert_equal ["192.168.2.0", "192.168.2.255"], [a.to_range.first.to_s, a.to_range.last.to_s]
    assert_equal "255.255.255.0", a.netmask
    assert_equal "#<IPAddr: IPv4:192.168.0.0/255.255.0.0>", IPAddr.new("192.168.1.7/255.255.0.0").inspect
  end

  def test_ipv6_text_forms
    b = IPAddr.new("3ffe:505:2::1")
    assert_equal "3ffe:505:2::1", b.to_s
    assert_equal "3ffe:0505:0002:0000:0000:0000:0000:0001", b.to_string
    assert_equal 85060308944708794891899627827609206785, b.to_i
    { "::1" => "::1", "::" => "::", "1::" => "1::", "1:0:0:2:0:0:0:3" => "1:0:0:2::3",
      "1:0:2:3:4:5:6:7" => "1:0:2:3:4:5:6:7", "0:0:1:0:0:1:0:0" => "::1:0:0:1:0:0",
      "::ffff:192.168.1.1" => "::ffff:192.168.1.1", "::192.168.1.1" => "::192.168.1.1",
      "::ffff" => "::ffff", "::1:0" => "::0.1.0.0", "1:2:3:4:5:6:1.2.3.4" => "1:2:3:4:5:6:102:304",
      "FFFF::ABCD" => "ffff::abcd", "[::1]" => "::1", "fe80::1%eth0" => "fe80::1%eth0" }.each do |text, shown|
      assert_equal shown, IPAddr.new(text).to_s, text
    end
    assert_equal "#<IPAddr: IPv6:fe80:0000:0000:0000:0000:0000:0000:0001%eth0/ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff>",
                 IPAddr.new("fe80::1%eth0").inspect
  end

  def test_masks_and_arithmetic
    assert_equal "192.168.0.0", IPAddr.new("192.168.1.5").mask(16).to_s
    assert_equal "3ffe:505:2::", IPAddr.new("3ffe:505:2::1").mask(48).to_s
    assert_equal "10.0.0.0", IPAddr.new("10.0.0.1").mask("255.255.0.0").to_s
    x = IPAddr.new("10.1.2.3")
    x.prefix = 8
    assert_equal "#<IPAddr: IPv4:10.0.0.0/255.0.0.0>", x.inspect
    assert_equal ["10.0.0.255", "0.0.0.0", "255.255.255.0", "0.0.1.0", "0.10.0.0", "10.0.0.2"],
                 [(IPAddr.new("10.0.0.1") | 0xff).to_s, (IPAddr.new("10.0.0.1") & 0xff00).to_s,
                  (~IPAddr.new("0.0.0.255")).to_s, (IPAddr.new("10.0.0.1") << 8).to_s,
                  (IPAddr.new("10.0.0.1") >> 8).to_s, IPAddr.new("10.0.0.1").succ.to_s]
  end

  def test_comparison
    assert_equal(-1, IPAddr.new("192.168.1.2") <=> IPAddr.new("192.168.1.3"))
    assert IPAddr.new("10.0.0.1") == "10.0.0.1"
    assert IPAddr.new("10.0.0.0/8") == IPAddr.new("10.0.0.0/16")        # addresses only
    refute IPAddr.new("10.0.0.0/8").eql?(IPAddr.new("10.0.0.0/16"))     # with the mask
    assert IPAddr.new("10.0.0.0/8").eql?(IPAddr.new("10.0.0.0/8"))
    assert_equal IPAddr.new("10.0.0.0/8").hash, IPAddr.new("10.0.0.0/8").hash
    refute IPAddr.new("10.0.0.1") == "x"
    assert_nil IPAddr.new("10.0.0.1") <=> "x"
    assert_nil IPAddr.new("10.0.0.1") <=> IPAddr.new("::1")
    assert_equal %w(10.0.0.1 10.0.0.2), [IPAddr.new("10.0.0.2"), IPAddr.new("10.0.0.1")].sort.map(&:to_s)
    assert_include IPAddr.ancestors, Comparable
  end

  def test_conversions
    assert_equal [10, 0, 0, 1], IPAddr.new("10.0.0.1").hton.bytes
    assert_equal "10.0.0.1", IPAddr.new_ntoh([10, 0, 0, 1].pack("C*")).to_s
    assert_equal "127.0.0.1", IPAddr.ntop([127, 0, 0, 1].pack("C*"))
    assert_equal "::ffff:192.168.1.1", IPAddr.new("192.168.1.1").ipv4_mapped.to_s
    assert_equal "::192.168.1.1", IPAddr.new("192.168.1.1").ipv4_compat.to_s
    assert_equal "10.0.0.1", IPAddr.new("::ffff:10.0.0.1").native.to_s
    assert_equal "192.168.1.1", IPAddr.new(3232235777, Socket::AF_INET).to_s
    assert_equal "::1", IPAddr.new(1, Socket::AF_INET6).to_s
    assert_equal "1.2.168.192.in-addr.arpa", IPAddr.new("192.168.2.1").reverse
    assert_equal "f.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.2.0.0.0.5.0.5.0.e.f.f.3.ip6.arpa", IPAddr.new("3ffe:505:2::f").ip6_arpa
    assert_equal "1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.e.f.f.3.ip6.int", IPAddr.new("3ffe::1").ip6_int
  end

  def test_predicates
    assert_equal [true, true, true, true, true, false, true],
                 %w(127.0.0.1 ::1).map { |s| IPAddr.new(s).loopback? } +
                 %w(10.1.2.3 172.16.0.1 192.168.0.1 8.8.8.8 fd00::1).map { |s| IPAddr.new(s).private? }
    assert IPAddr.new("169.254.1.1").link_local?
    assert IPAddr.new("fe80::1").link_local?
    assert_equal [false, true, false, true, true, false],
                 [IPAddr.new("::1").ipv4_compat?, IPAddr.new("::2").ipv4_compat?, IPAddr.new("192.168.1.2").ipv4_compat?,
                  IPAddr.new("::ffff:0.0.0.0").ipv4_mapped?, IPAddr.new("0.0.0.0/0").include?("1.2.3.4"),
                  IPAddr.new("10.0.0.0/8").include?(IPAddr.new("::1"))]
  end

  def test_errors
    %w(192.168.1.256 foo 1.2.3 1.2.3.4.5 ::: 1:2:3:4:5:6:7:8:9 1.2.3.4/x).each do |bad|
      assert_raise(IPAddr::InvalidAddressError) { IPAddr.new(bad) }
    end
    # the address is named in the messages since ipaddr 1.2.7 (Ruby 3.4); 3.3 leaves it out or gives a number
    assert assert_raise(IPAddr::InvalidAddressError) { IPAddr.new("01.2.3.4") }.message.start_with?("zero-filled number in IPv4 address is ambiguous: ")
    assert_raise(IPAddr::InvalidPrefixError) { IPAddr.new("1.2.3.4/33") }
    assert_raise(IPAddr::InvalidPrefixError) { IPAddr.new("::1/129") }
    assert_raise(IPAddr::InvalidPrefixError) { IPAddr.new("192.168.1.7/255.0.255.0") }
    assert_equal "address family must be specified", assert_raise(IPAddr::AddressFamilyError) { IPAddr.new(1) }.message
    assert assert_raise(IPAddr::InvalidAddressError) { IPAddr.new("10.0.0.1").ip6_arpa }.message.start_with?("not an IPv6 address: ")
    assert_equal "invalid address: 4294967295", assert_raise(IPAddr::InvalidAddressError) { IPAddr.new("255.255.255.255").succ }.message
    assert_equal [ArgumentError, IPAddr::Error, IPAddr::Error, IPAddr::InvalidAddressError],
                 [IPAddr::Error, IPAddr::InvalidAddressError, IPAddr::AddressFamilyError, IPAddr::InvalidPrefixError].map(&:superclass)
  end

  # ipaddr 1.2.7+ (Ruby 3.4 and 4.0); CRuby 3.3's 1.2.6 lacks them, so this runs where they exist.
  # Expected values from the ipaddr gem's own tests.
  def test_newer_api
    skip "ipaddr 1.2.6 (CRuby 3.3)" unless IPAddr.method_defined?(:wildcard_mask)
    assert_equal ["192.168.1.20", "3ffe:505:2::14", "192.168.1.0"],
                 [(IPAddr.new("192.168.1.10") + 10).to_s, (IPAddr.new("3ffe:505:2::a") + 10).to_s, (IPAddr.new("192.168.1.10") - 10).to_s]
    assert_raise(IPAddr::InvalidAddressError) { IPAddr.new("255.255.255.255") + 10 }
    assert_raise(IPAddr::InvalidAddressError) { IPAddr.new("::") - 10 }
    assert_equal ["127.255.255.255", "0.0.0.255"], [IPAddr.new("192.168.1.2/1").wildcard_mask, IPAddr.new("192.168.1.2/24").wildcard_mask]
    assert_equal ["192.168.1.2", "192.168.1.0/24", "2001:200:300::/48", "\"192.168.1.0/24\""],
                 [IPAddr.new("192.168.1.2").as_json, IPAddr.new("192.168.1.2/24").as_json,
                  IPAddr.new("2001:200:300::/48").as_json, IPAddr.new("192.168.1.2/24").to_json]
    assert_equal [true, false, true, true, false], [IPAddr.new("224.0.0.1").multicast?, IPAddr.new("::1").multicast?,
                                                    IPAddr.new("ff02::1").multicast?, IPAddr.new("224.0.0.0").link_local_multicast?,
                                                    IPAddr.new("ff05::1").link_local_multicast?]
    a = IPAddr.new("1:2:3:4:5:6:7:8")
    a.zone_id = "%ab0"
    assert_equal "1:2:3:4:5:6:7:8%ab0", a.to_s
    assert_raise(IPAddr::InvalidAddressError) { a.zone_id = "%" }
    assert_raise(IPAddr::InvalidAddressError) { IPAddr.new("192.168.1.2").zone_id }
    assert_equal "invalid address: 192.168.0.1000", assert_raise(IPAddr::InvalidAddressError) { IPAddr.new("192.168.0.1000") }.message
    assert_equal "not an IPv4 address: 2001:db8::", assert_raise(IPAddr::InvalidAddressError) { IPAddr.new("2001:db8::").ipv4_mapped }.message
    assert_raise(IPAddr::InvalidPrefixError) { IPAddr.new("192.168.0.1/032") }
    assert_raise(IPAddr::InvalidAddressError) { IPAddr.new("fe80::1%]") }
    assert_raise(IPAddr::InvalidAddressError) { IPAddr.ntop("\x0A\x0A\x0A\x0A".dup.force_encoding("UTF-8")) }
    assert_equal false, IPAddr.new("0.0.0.0") == nil
    assert_equal 112, IPAddr.new("192.168.0.0/16").ipv4_compat.prefix
  end
end
