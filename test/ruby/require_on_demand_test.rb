# Built-in features that load at their first require, as CRuby's libraries do: uri, net/http
# (with MNRB::HTTPServer), open-uri, socket, timeout, stringio, benchmark, pp (Kernel#pp loads it). Each check runs in a fresh process, where nothing has
# required them yet. Ractors created after a require have the feature; one created before does
# not (it sees definitions as they were when it started) and can require it itself. mnrb's
# open-uri loads net/http at once (CRuby's when it first opens a URL).

class RequireOnDemandTest < MnTest::Case
  # The value of the last line of `code`, run by a new interpreter of the one running the tests.
  def fresh(code)
    out = IO.popen([RbConfig.ruby, "-W0", "-e", "p((#{code}))"], err: [:child, :out]) { |io| io.read }
    assert_equal 0, $?.exitstatus, out
    out.chomp
  end

  def test_nothing_is_defined_before_the_require_and_the_first_require_returns_true
    assert_equal "[false, false, true, false, false, true, true]",
                 fresh("[Object.const_defined?(:URI), Object.const_defined?(:Net), require('net/http'), " \
                       "require('net/http'), require('uri'), Object.const_defined?(:URI), " \
                       "$LOADED_FEATURES.any? { |f| f.end_with?('net/http.rb') }]")
  end

  def test_socket_loads_at_require
    assert_equal "[false, true, true, 2, false]",
                 fresh("[Object.const_defined?(:TCPSocket), require('socket'), Object.const_defined?(:TCPSocket), " \
                       "Socket::AF_INET, require('socket')]")
  end

  def test_stdlib_pieces_load_at_require
    assert_equal "[[false, false, false, false], [true, true, true, true], [false, false, false, false]]",
                 fresh("names = %i(Timeout StringIO Benchmark PP); features = %w(timeout stringio benchmark pp); " \
                       "[names.map { |n| Object.const_defined?(n) }, features.map { |f| require(f) }, " \
                       "features.map { |f| require(f) }]")
  end

  def test_kernel_pp_loads_pp_at_its_first_call
    assert_equal "[1, 2]\n[false, [1, 2], true]",
                 fresh("a = Object.const_defined?(:PP); v = pp([1, 2]); [a, v, Object.const_defined?(:PP)]")
  end

  def test_uri_alone_does_not_bring_net_http
    assert_equal "[true, 8080, false]",
                 fresh("[require('uri'), URI('http://h:8080/').port, Object.const_defined?(:Net)]")
  end

  def test_open_uri_brings_uri
    assert_equal "[true, true, false]",
                 fresh("[require('open-uri'), Object.const_defined?(:OpenURI), require('uri')]")
  end

  def test_threads_requiring_at_once_load_it_once
    assert_equal "[1, 7]",
                 fresh("ts = 8.times.map { Thread.new { require('net/http') } }; " \
                       "v = ts.map(&:value); [v.count(true), v.count(false)]")
  end

  def test_a_ractor_created_after_the_require_has_the_feature
    assert_equal '[true, "Net::HTTP", 81]',
                 fresh("require('net/http'); Ractor.new { [Net.const_defined?(:HTTP), Net::HTTP.name, " \
                       "URI('http://h:81/').port] }.take")
  end

  # mnrb's: the feature loads in that ractor's heap only (CRuby 3.1 cannot require in a ractor;
  # later CRubies load it in the main ractor, for all).
  def test_a_ractor_created_before_the_require_can_require_it_itself
    mnrb_only
    assert_equal '[[false, true, "h"], true]',
                 fresh("r = Ractor.new { Ractor.receive; [Object.const_defined?(:URI), require('uri'), " \
                       "URI('http://h/').host] }; require('uri'); r << 1; [r.take, Object.const_defined?(:URI)]")
  end

  def test_net_http_in_a_ractor_against_a_server_in_main
    mnrb_only
    require "net/http"
    server = MNRB::HTTPServer.new(port: 0) { |_req| [200, {}, "from main"] }.start
    begin
      r = Ractor.new(server.port) { |port| Net::HTTP.get("127.0.0.1", "/", port) }
      assert_equal "from main", r.take
    ensure
      server.shutdown
    end
  end

  # The loader's internal entry point refuses anything but a registered feature (no crash).
  def test_run_feature_refuses_what_is_no_feature
    mnrb_only
    [1, nil, Object.new, "net/http"].each do |bad|
      assert_raise(TypeError) { MNRB::Loader.run_feature(bad) }
    end
  end
end
