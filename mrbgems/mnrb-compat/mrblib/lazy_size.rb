# Enumerator::Lazy#size as CRuby answers it: known only where the chain cannot change the count.
# mruby's Lazy is an Enumerator over a generator, so #size was always nil. Each Lazy records how
# its size follows from the one it was made from: Enumerable#lazy takes the receiver's #size, map
# / collect / zip / with_index keep it, take(n) and drop(n) bound it, Lazy.new(obj, size) takes the
# size given (a number, or something callable); every other step (select, flat_map,
# take_while...) cannot know it: nil. The methods are wrapped through a prepended module, so the
# order the other Lazy files (lazy_zip.rb...) load in does not matter.
if Object.const_defined?(:Enumerator) && Enumerator.const_defined?(:Lazy)
  class Enumerator
    class Lazy
      module SizeRule
        def initialize(obj, size = nil, &block)
          super(obj, &block)
          @__mnrb_size = [:given, nil, size]
        end

        def map(*args, &block) = __mnrb_sized(super, :same)
        def collect(*args, &block) = __mnrb_sized(super, :same)
        def zip(*args, &block) = __mnrb_sized(super, :same)
        def with_index(*args, &block) = __mnrb_sized(super, :same)
        def each_with_index(*args, &block) = __mnrb_sized(super, :same)
        def take(n) = __mnrb_sized(super, :take, n)
        def drop(n) = __mnrb_sized(super, :drop, n)

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

        private

        def __mnrb_sized(lazy, how, n = nil)
          lazy.instance_variable_set(:@__mnrb_size, [how, self, n]) if lazy.is_a?(Lazy) && !lazy.equal?(self)
          lazy
        end
      end
      prepend SizeRule

      def lazy = self
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
