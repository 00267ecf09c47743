# A script file that starts with a UTF-8 byte order mark runs (CRuby skips the mark); the
# mark is not part of the first line: __LINE__ counts from 1 (patches/mruby/0020-parser-linear.patch).
# expect-stdout: bom line 5
# expect-stdout: bom ok
puts "bom line #{__LINE__}"
puts "bom ok"
