# Enumerator::Lazy#size as CRuby answers it: known only where the chain cannot change the count.
# mruby's Lazy is an Enumerator over a generator, so #size was always nil. Each Lazy records how
# its size follows from the one it was made from: Enumerable#lazy takes the receiver's #size, map
# / collect / zip / with_index keep it, take(n) and drop(n) bound it, Lazy.new(obj, size) takes the
# size given (a number, or something callable); every other step (select, flat_map,
# take_while...) cannot know it: nil. lazy_zip.rb (loaded after this file) records zip's.
# The wrappers are aliases and defs in Lazy itself, not a prepended module: a prepended class's
# later defs cannot be lazy (mruby patch 0013), and every ractor boots this file
# (ractor_lean_state_test.rb).
if Object.const_defined?(:Enumerator) && Enumerator.const_defined?(:Lazy)
  class Enumerator
    class Lazy
      alias __mnrb_unsized_initialize initialize
      alias __mnrb_unsized_map map
      alias __mnrb_unsized_take take
      alias __mnrb_unsized_drop drop

      def initialize(obj, size = nil, &block)
        __mnrb_unsized_initialize(obj, &block)
        @__mnrb_size = [:given, nil, size]
      end

      def map(*args, &block) = __mnrb_sized(__mnrb_unsized_map(*args, &block), :same)
      def collect(*args, &block) = __mnrb_sized(__mnrb_unsized_map(*args, &block), :same)
      def with_index(*args, &block) = __mnrb_sized(super, :same)
      def each_with_index(*args, &block) = __mnrb_sized(super, :same)
      def take(n) = __mnrb_sized(__mnrb_unsized_take(n), :take, n)
      def drop(n) = __mnrb_sized(__mnrb_unsized_drop(n), :drop, n)

      def size
        how, src, n = @__mnrb_size
        case how
        when :given then n.respond_to?(:call) ? n.call : n
        when :source then src.respond_to?(:size) ? src.size : nil
        when :same then src.size
        when :take
          s = src.size
          s.nil? || (s.is_a?(Integer) && s < n) ? s : n
        when :drop
          s = src.size
          if s.nil? then nil
          elsif s.is_a?(Integer) then s > n ? s - n : 0
          else s - n
          end
        end
      end

      def lazy = self

      private

      def __mnrb_sized(lazy, how, n = nil)
        lazy.instance_variable_set(:@__mnrb_size, [how, self, n]) if lazy.is_a?(Lazy) && !lazy.equal?(self)
        lazy
      end
    end
  end

  module Enumerable
    def lazy
      lz = Enumerator::Lazy.new(self)
      lz.instance_variable_set(:@__mnrb_size, [:source, self, nil])
      lz
    end
  end
end
