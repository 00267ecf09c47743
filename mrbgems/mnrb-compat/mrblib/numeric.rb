class Integer
  # [gcd, lcm] of self and other.
  def gcdlcm(other)
    [gcd(other), lcm(other)]
  end
end
