# `require "openssl"` loads libssl then, as CRuby's openssl.so (linked to libssl.so.3) is loaded
# at that require: a process that never requires it maps no libssl or libcrypto; one that does
# maps both. A libssl that cannot be loaded is a LoadError with dlerror's text, " - " and the
# extension (CRuby names its openssl.so's path; mnrb has no file and names its entry, openssl.so),
# leaves OpenSSL undefined and nothing in $LOADED_FEATURES, and the next require tries again.
# A ractor may be the first to require it (mrbgems/mnrb-openssl/src/libssl.c loads it once per
# process). Each case runs in a child process. Checked on CRuby 3.3.8 and Debian's 3.1 (but the
# ractor case: CRuby 3.x cannot require openssl in a non-main ractor, Ractor::IsolationError).
require "tmpdir"

class OpenSSLLoadTest < MnTest::Case
  def run_child(code, env = {})
    IO.popen([env, RbConfig.ruby, "-W:no-experimental", "-e", code], err: [:child, :out], &:read)
  end

  def test_a_process_that_never_requires_openssl_maps_no_libssl
    assert_equal "false\n", run_child('p File.read("/proc/self/maps").match?(/libssl|libcrypto/)')
  end

  def test_require_maps_libssl_and_libcrypto
    out = run_child('require "openssl"; m = File.read("/proc/self/maps"); p [m.include?("/libssl.so"), m.include?("/libcrypto.so")]')
    assert_equal "[true, true]\n", out
  end

  # an empty libssl.so.3 found first through LD_LIBRARY_PATH stands for a broken or missing one
  def test_a_libssl_that_cannot_be_loaded_is_a_load_error_and_nothing_is_defined
    Dir.mktmpdir("mnrb-nossl") do |dir|
      File.write("#{dir}/libssl.so.3", "")
      out = run_child(<<~'RUBY', { "LD_LIBRARY_PATH" => dir })
        2.times do
          begin
            require "openssl"
            puts "loaded"
          rescue LoadError => e
            puts e.message
          end
        end
        p [defined?(OpenSSL), $LOADED_FEATURES.grep(/openssl/)]
      RUBY
      lines = out.lines
      assert_equal 3, lines.size, out
      message = %r{\A#{Regexp.escape(dir)}/libssl\.so\.3: file too short - (/\S+/)?openssl\.so\n\z}
      lines[0, 2].each { |line| assert message.match?(line), line }
      assert_equal "[nil, []]\n", lines[2]
    end
  end

  # two ractors load it at once (one opens libssl, the other finds it open), then a ractor made
  # after the main ractor required it has it from its start
  def test_ractors_can_be_first_to_require_openssl
    mnrb_only
    out = run_child(<<~'RUBY')
      rs = 2.times.map { |i| Ractor.new(i) { |k| require "openssl"; OpenSSL::Digest::SHA256.hexdigest("abc#{k}")[0, 8] } }
      p rs.map(&:take)
      require "openssl"
      p Ractor.new { OpenSSL::HMAC.hexdigest("SHA256", "k", "abc")[0, 8] }.take
    RUBY
    assert_equal %(["56abfbd7", "dbfcfd0d"]\n"342e519c"\n), out
  end
end
