# Encoding errors' attributes, as CRuby's (set by src/convert.c when it raises): the bytes or
# character that failed, what was read after them, and the step's encodings.
class Encoding
  class UndefinedConversionError
    def error_char
      @__error_bytes
    end
  end

  class InvalidByteSequenceError
    def error_bytes
      @__error_bytes
    end

    def readagain_bytes
      @__readagain_bytes
    end

    def incomplete_input?
      @__incomplete_input ? true : false
    end
  end

  [UndefinedConversionError, InvalidByteSequenceError].each do |c|
    c.class_eval do
      def source_encoding
        @__source_encoding
      end

      def destination_encoding
        @__destination_encoding
      end

      def source_encoding_name
        @__source_encoding && @__source_encoding.name
      end

      def destination_encoding_name
        @__destination_encoding && @__destination_encoding.name
      end
    end
  end
end
