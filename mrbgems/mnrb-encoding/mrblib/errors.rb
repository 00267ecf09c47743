# Encoding errors' attributes, as CRuby's (set by src/convert.c when it raises): the bytes or
# character that failed, what was read after them, and the step's encodings. (Plain defs in each
# class: a fresh ractor makes no objects for them.)
class Encoding
  class UndefinedConversionError
    def error_char = @__error_bytes
    def source_encoding = @__source_encoding
    def destination_encoding = @__destination_encoding
    def source_encoding_name = @__source_encoding&.name
    def destination_encoding_name = @__destination_encoding&.name
  end

  class InvalidByteSequenceError
    def error_bytes = @__error_bytes
    def readagain_bytes = @__readagain_bytes
    def incomplete_input? = @__incomplete_input ? true : false
    def source_encoding = @__source_encoding
    def destination_encoding = @__destination_encoding
    def source_encoding_name = @__source_encoding&.name
    def destination_encoding_name = @__destination_encoding&.name
  end
end
