puts "a file with a syntax error must not run at all"
# A syntax error is reported with the file and line, status 1, and nothing runs.
# expect-status: 1
# expect-stderr: syntax_error.rb:7:
# expect-stderr: syntax error
# expect-no-stdout: must not run
x = [1, 2 3]
puts x
