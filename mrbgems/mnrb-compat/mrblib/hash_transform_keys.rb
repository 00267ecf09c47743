# Hash#transform_keys and #transform_keys! with a mapping Hash (CRuby 3.0+): a key found in the
# mapping takes its value there, any other the block's answer (or stays, without a block).
# mruby-hash-ext's versions take only the block (guarded: mrbtest may run without that gem).
if Hash.method_defined?(:transform_keys) && Hash.method_defined?(:transform_keys!)
  class Hash
    alias __mnrb_transform_keys_by_block transform_keys

    def transform_keys(mapping = nil, &block)
      return __mnrb_transform_keys_by_block(&block) if mapping.nil?
      mapping = __mnrb_try_convert(Hash, mapping, :to_hash) ||
                raise(TypeError, "no implicit conversion of #{mapping.class} into Hash")
      out = {}
      each do |k, v|
        nk = if mapping.key?(k) then mapping[k]
             elsif block then block.call(k)
             else k
             end
        out[nk] = v
      end
      out
    end

    def transform_keys!(mapping = nil, &block)
      return to_enum(:transform_keys!) if mapping.nil? && !block
      replace(transform_keys(mapping, &block))
    end
  end
end

if Object.const_defined?(:Enumerator) && Enumerator.const_defined?(:Lazy)
  class Enumerator
    class Lazy
      # Enumerator::Lazy#eager (CRuby 3.1): the same sequence as a plain (not lazy) Enumerator
      def eager
        Enumerator.new(self, :each)
      end
    end
  end
end
