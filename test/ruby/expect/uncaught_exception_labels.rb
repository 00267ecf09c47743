# An exception that escapes the main script: CRuby 3.4's labels in the report ('Object#helper',
# 'block in Object#helper', 'Integer#times', '<main>'; 3.1: `helper', `times', `<main>').
# expect-mnrb-only: CRuby 3.1 labels frames `like this' (3.4, which mnrb follows: 'Owner#like_this')
# expect-status: 1
# expect-stderr: uncaught_exception_labels.rb:11:in 'block in Object#helper': labelled failure (ArgumentError)
# expect-stderr: 	from
# expect-stderr: uncaught_exception_labels.rb:11:in 'Integer#times'
# expect-stderr: uncaught_exception_labels.rb:11:in 'Object#helper'
# expect-stderr: uncaught_exception_labels.rb:13:in '<main>'
def helper
  1.times { raise ArgumentError, "labelled failure" }
end
helper
