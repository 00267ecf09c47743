# Enumerator::Lazy#zip as CRuby's: each element paired with the elements at the same position of
# the arguments (Arrays read by index, other enumerables stepped with #next; nil past their end).
# mruby's called #next on the Lazy itself and on each argument, so `lazy.zip([...])` raised
# NoMethodError for an Array and skipped the receiver's elements. With a block it is not lazy
# (Enumerable#zip: the block gets each tuple, the result is nil), as in CRuby.
if Object.const_defined?(:Enumerator) && Enumerator.const_defined?(:Lazy)
  class Enumerator
    class Lazy
      def zip(*args, &block)
        return super if block
        args.each do |a|
          next if a.respond_to?(:to_ary) || a.respond_to?(:each)
          raise TypeError, "wrong argument type #{a.class} (must respond to :each)"
        end
        lists = args.map { |a| a.respond_to?(:to_ary) ? a.to_ary : a.to_enum(:each) }
        pos = 0
        zipped = Lazy.new(self) do |yielder, val|
          row = [val]
          lists.each do |l|
            if l.is_a?(Array)
              row << l[pos]
            else
              row << begin
                l.next
              rescue StopIteration
                nil
              end
            end
          end
          pos += 1
          yielder << row
        end
        __mnrb_sized(zipped, :same)      # its size is the receiver's (lazy_size.rb)
      end
    end
  end
end
