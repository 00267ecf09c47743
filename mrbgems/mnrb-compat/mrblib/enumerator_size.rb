# Enumerator#size as CRuby computes it. mruby's answers the receiver's #size for every enumerator,
# which is right for the iterators that visit each element once (each, map, select, sort_by...)
# and wrong for the others: over an Integer (3.times, 1.upto(5): Integer#size is its byte width,
# integer_bits.rb), for a search that may stop early (find, index, take_while: CRuby says nil),
# for each_slice/each_cons (the number of slices), cycle (Infinity, or n times the size) and
# loop (Infinity). Numeric#step's count is computed for Integer arguments; with Floats it is nil
# here (CRuby computes it). Enumerator.new(size) { |y| ... } keeps its size (mruby dropped it): a
# number, or something callable asked each time.
if Object.const_defined?(:Enumerator)
  class Enumerator
    alias __mnrb_size_by_receiver size
    alias __mnrb_sizeless_initialize initialize

    # an alias and a def, not a prepended module: a prepended class's later defs cannot be lazy
    # (mruby patch 0013), and every ractor boots this file (ractor_lean_state_test.rb)
    def initialize(*args, **kw, &block)
      return __mnrb_sizeless_initialize(*args, **kw, &block) unless block && args.size == 1 && kw.empty?
      __mnrb_sizeless_initialize(&block)
      @size = args[0]
    end

    def size
      if instance_variable_defined?(:@size)
        s = @size
        return s.respond_to?(:call) ? s.call : s
      end
      return __mnrb_integer_size if @obj.is_a?(Integer)
      return Float::INFINITY if @meth == :loop
      case @meth        # searches that may stop early: a literal list, no constant made at boot
      when :find, :detect, :find_index, :index, :rindex, :take_while, :drop_while, :chunk_while,
           :slice_when, :bsearch, :bsearch_index
        return nil
      end
      s = __mnrb_size_by_receiver
      n = @args && @args[0]
      case @meth
      when :each_slice then s.is_a?(Integer) && n.is_a?(Integer) && n > 0 ? (s + n - 1) / n : s
      when :each_cons then s.is_a?(Integer) && n.is_a?(Integer) && n > 0 ? [s - n + 1, 0].max : s
      when :cycle
        return s unless s.is_a?(Integer)
        return 0 if s == 0
        n.nil? ? Float::INFINITY : (n.is_a?(Integer) && n > 0 ? s * n : 0)
      else s
      end
    end

    private

    def __mnrb_integer_size
      n = @args && @args[0]
      case @meth
      when :times then @obj < 0 ? 0 : @obj
      when :upto then n.is_a?(Integer) ? [n - @obj + 1, 0].max : nil
      when :downto then n.is_a?(Integer) ? [@obj - n + 1, 0].max : nil
      when :step then __mnrb_step_size(n, @args[1] || 1)
      end
    end

    def __mnrb_step_size(limit, step)
      return Float::INFINITY if limit.nil? || step == 0
      return nil unless limit.is_a?(Integer) && step.is_a?(Integer)
      d = step > 0 ? limit - @obj : @obj - limit
      d < 0 ? 0 : d / step.abs + 1
    end
  end
end
