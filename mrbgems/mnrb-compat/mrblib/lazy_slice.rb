# Enumerator::Lazy's grep_v and compact (lazy, as CRuby's), and its chunk/slice_* family, which
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

      def chunk(&block) = block ? super.lazy : super
      def chunk_while(&block) = super.lazy
      def slice_when(&block) = super.lazy
      def slice_before(*args, &block) = super.lazy
      def slice_after(*args, &block) = super.lazy
    end
  end
end
