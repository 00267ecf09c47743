# Enumerator#size for enumerators over an Integer (3.times, 1.upto(5), 5.downto(1)): mruby's
# answers the receiver's #size, which since Integer#size (integer_bits.rb) would be its byte
# width; CRuby computes the count, and nil for what it cannot (1.step without a limit is
# Infinity in CRuby; nil here, as before).
if Object.const_defined?(:Enumerator)
  class Enumerator
    alias __mnrb_size_by_receiver size

    def size
      return __mnrb_size_by_receiver unless @obj.is_a?(Integer)
      n = @args && @args[0]
      case @meth
      when :times then @obj < 0 ? 0 : @obj
      when :upto then n.is_a?(Integer) ? [n - @obj + 1, 0].max : nil
      when :downto then n.is_a?(Integer) ? [@obj - n + 1, 0].max : nil
      end
    end
  end
end
