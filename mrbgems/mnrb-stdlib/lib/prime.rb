# prime: CRuby's prime library (`require "prime"`): the set of all primes as an Enumerable,
# Integer#prime?, prime factorization, and the generators it enumerates with.
#
# Prime is a singleton (Prime.instance) whose class methods forward to the instance, so that
# `Prime.first(5)`, `Prime.each(100)`, `Prime.lazy` and `Prime.prime?(n)` all work. A generator is
# an external enumerator of pseudo-primes: EratosthenesGenerator (exact, from a sieve that grows by
# segments), TrialDivisionGenerator (exact, by trial division), Generator23 (2, 3 and the numbers
# prime to 6: not all prime, but enough as trial divisors, and the cheapest).
# Integer#prime? is a deterministic Miller-Rabin test below 3.3e24 and trial division above.

class Prime
  include Enumerable

  VERSION = "0.1.2"

  # Miller-Rabin with these witnesses is exact below 3.3e24 (Integer#prime?)
  MILLER_RABIN_WITNESSES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37].freeze
  private_constant :MILLER_RABIN_WITNESSES

  class << self
    include Enumerable

    def instance
      @instance ||= new
    end

    # every public instance method of Prime, called on the class
    [:each, :include?, :prime?, :int_from_prime_division, :prime_division].each do |name|
      define_method(name) { |*args, &block| instance.send(name, *args, &block) }
    end
  end
  private_class_method :new

  # Enumerates the primes up to +ubound+ (all of them when nil) with +generator+; without a block,
  # returns the generator (an Enumerable) bounded by +ubound+.
  def each(ubound = nil, generator = EratosthenesGenerator.new, &block)
    generator.upper_bound = ubound
    generator.each(&block)
  end

  def include?(obj)
    case obj
    when Integer then prime?(obj)
    when Module then Prime.ancestors.include?(obj)
    else false
    end
  end

  # Whether +value+ is prime, by trial division with +generator+'s numbers.
  def prime?(value, generator = Prime::Generator23.new)
    raise ArgumentError, "Expected a prime generator, got #{generator}" unless generator.respond_to?(:each)
    raise ArgumentError, "Expected an integer, got #{value}" unless value.respond_to?(:integer?) && value.integer?
    return false if value < 2
    generator.each do |divisor|
      q, r = value.divmod(divisor)
      return true if q < divisor
      return false if r == 0
    end
  end

  # [[p1, e1], [p2, e2], ...] -> p1**e1 * p2**e2 * ...
  def int_from_prime_division(pd)
    pd.inject(1) { |value, (prime, exponent)| value * prime**exponent }
  end

  # The factorization of +value+ as [[prime, exponent], ...] in ascending order; a negative value
  # starts with [-1, 1].
  def prime_division(value, generator = Prime::Generator23.new)
    raise ZeroDivisionError if value == 0
    factors = []
    if value < 0
      value = -value
      factors << [-1, 1]
    end
    generator.each do |prime|
      count = 0
      quotient = value
      loop do
        q, r = value.divmod(prime)
        quotient = q
        break unless r == 0
        value = q
        count += 1
      end
      factors << [prime, count] if count > 0
      break if quotient <= prime
    end
    factors << [value, 1] if value > 1
    factors
  end

  # An external enumerator of pseudo-primes, ascending, up to an optional upper bound.
  # Subclasses define succ (the next one), next (the same) and rewind.
  class PseudoPrimeGenerator
    include Enumerable

    def initialize(ubound = nil)
      @ubound = ubound
    end

    def upper_bound=(ubound)
      @ubound = ubound
    end

    def upper_bound
      @ubound
    end

    def succ
      raise NotImplementedError, "need to define `succ'"
    end

    def next
      raise NotImplementedError, "need to define `next'"
    end

    def rewind
      raise NotImplementedError, "need to define `rewind'"
    end

    # Yields each pseudo-prime up to the upper bound (forever without one) and returns the block's
    # last value; without a block, a copy of the generator.
    def each
      return dup unless block_given?
      if @ubound
        last = nil
        loop do
          prime = succ
          break last if prime > @ubound
          last = yield prime
        end
      else
        loop { yield succ }
      end
    end

    def with_index(offset = 0, &block)
      return enum_for(:with_index, offset) { Float::INFINITY } unless block
      return each_with_index(&block) if offset == 0
      each do |prime|
        yield prime, offset
        offset += 1
      end
    end

    def with_object(obj)
      return enum_for(:with_object, obj) { Float::INFINITY } unless block_given?
      each { |prime| yield prime, obj }
      obj
    end

    def size
      Float::INFINITY
    end
  end

  # The primes in order, from EratosthenesSieve.
  class EratosthenesGenerator < PseudoPrimeGenerator
    def initialize
      @last_prime_index = -1
      super
    end

    def succ
      @last_prime_index += 1
      EratosthenesSieve.instance.get_nth_prime(@last_prime_index)
    end

    def rewind
      initialize
    end
    alias next succ
  end

  # The primes in order, each found by dividing by the primes before it.
  class TrialDivisionGenerator < PseudoPrimeGenerator
    def initialize
      @index = -1
      super
    end

    def succ
      TrialDivision.instance[@index += 1]
    end

    def rewind
      initialize
    end
    alias next succ
  end

  # 2, 3, then every number prime to 6 (5, 7, 11, 13, 17, 19, 23, 25, ...).
  class Generator23 < PseudoPrimeGenerator
    def initialize
      @prime = 1
      @step = nil
      super
    end

    def succ
      if @step
        @prime += @step
        @step = 6 - @step
      else
        case @prime
        when 1 then @prime = 2
        when 2 then @prime = 3
        when 3
          @prime = 5
          @step = 2
        end
      end
      @prime
    end
    alias next succ

    def rewind
      initialize
    end
  end

  # The primes found so far, grown by trial division (TrialDivisionGenerator's table).
  class TrialDivision
    def self.instance
      @instance ||= new
    end

    def initialize
      @primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97, 101]
      @next_to_check = 103
    end

    def [](index)
      while index >= @primes.size
        candidate = @next_to_check
        @next_to_check += 2
        @primes << candidate if @primes.all? { |p| break true if p * p > candidate; candidate % p != 0 }
      end
      @primes[index]
    end
  end

  # The primes found so far, grown a segment at a time by the sieve of Eratosthenes.
  class EratosthenesSieve
    def self.instance
      @instance ||= new
    end

    def initialize
      @primes = [2, 3, 5, 7, 11, 13]
      @max_checked = 13   # every prime up to here is in @primes
    end

    def get_nth_prime(n)
      extend_sieve while @primes.size <= n
      @primes[n]
    end

    private

    # Sieves (@max_checked, 2 * @max_checked] (at most 2**20 numbers at once) with the known primes:
    # every composite there has a factor at most its square root, below the segment's start.
    def extend_sieve
      low = @max_checked + 1
      high = @max_checked + [@max_checked, 1 << 20].min
      composite = Array.new(high - low + 1, false)
      @primes.each do |p|
        break if p * p > high
        first = (low + p - 1) / p * p
        first = p * p if first < p * p
        first.step(high, p) { |m| composite[m - low] = true }
      end
      composite.each_with_index { |c, i| @primes << low + i unless c }
      @max_checked = high
    end
  end
end

class Integer
  # The Integer whose factorization is +pd+ ([[prime, exponent], ...]).
  def self.from_prime_division(pd)
    Prime.int_from_prime_division(pd)
  end

  # Yields each prime up to +ubound+; without a block, an Enumerable of them.
  def self.each_prime(ubound, &block)
    Prime.each(ubound, &block)
  end

  def prime_division(generator = Prime::Generator23.new)
    Prime.prime_division(self, generator)
  end

  # Miller-Rabin with the first 12 primes as witnesses is exact below 3.3e24; above, trial division.
  def prime?
    return false if self < 2
    witnesses = Prime.const_get(:MILLER_RABIN_WITNESSES)
    witnesses.each do |p|
      return true if self == p
      return false if self % p == 0
    end
    return true if self < 41 * 41
    return Prime.prime?(self) if self >= 3_317_044_064_679_887_385_961_981
    d = self - 1
    s = 0
    while d.even?
      d >>= 1
      s += 1
    end
    witnesses.all? do |a|
      x = a.pow(d, self)
      next true if x == 1 || x == self - 1
      (s - 1).times.any? { x = x * x % self; x == self - 1 }
    end
  end
end
