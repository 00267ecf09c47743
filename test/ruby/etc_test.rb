# Etc.nprocessors and Etc.uname (CRuby's etc library).

class EtcTest < MnTest::Case
  def setup
    require "etc"
  end

  def test_nprocessors_is_a_positive_integer
    n = Etc.nprocessors
    assert_kind_of Integer, n
    assert n >= 1
  end

  # The CPUs this process may use: never more than the online CPUs the kernel lists.
  def test_nprocessors_is_at_most_the_online_cpus
    online = File.read("/sys/devices/system/cpu/online").strip.split(",").sum do |range|
      lo, hi = range.split("-").map(&:to_i)
      hi ? hi - lo + 1 : 1
    end
    assert Etc.nprocessors <= online, "#{Etc.nprocessors} > #{online}"
  end

  def test_uname_names_the_system
    u = Etc.uname
    assert_equal "Linux", u[:sysname]
    [:nodename, :release, :version, :machine].each { |k| assert_kind_of String, u[k] }
  end
end
