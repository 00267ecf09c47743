# Enumerator::Lazy's grep_v, compact and filter_map (lazy, as CRuby's; Enumerable#filter_map ran
# through the whole source), and its chunk/slice_* family, which
# CRuby answers lazily too: Enumerable's versions (enum_slice.rb) iterate on demand already, so
# wrapping their enumerator in .lazy is enough.
if Object.const_defined?(:Enumerator) && Enumerator.const_defined?(:Lazy)
  class Enumerator
    class Lazy
      def grep_v(pattern, &block)
        kept = reject { |e| pattern === e }
        block ? kept.map(&block) : kept
      end

      def compact
        reject(&:nil?)
      end

      def filter_map(&block)
        raise ArgumentError, "tried to call lazy filter_map without a block" unless block
        Lazy.new(self) do |yielder, val|
          r = block.call(val)
          yielder << r if r
        end
      end

      def chunk(&block) = block ? super.lazy : super
      def chunk_while(&block) = super.lazy
      def slice_when(&block) = super.lazy
      def slice_before(*args, &block) = super.lazy
      def slice_after(*args, &block) = super.lazy
    end
  end
end
