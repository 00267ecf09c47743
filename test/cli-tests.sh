#!/usr/bin/env bash
# The command line, as `ruby` users expect it: options, ARGV and $0, exit statuses, errors.
#   test/cli-tests.sh BIN          prints "N passed, N failed" last
set -u
BIN=${1:?usage: cli-tests.sh BIN}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

source "$(dirname "$0")/lib/check.sh"

printf 'p ARGV\nputs $0\n' > "$tmp/args.rb"
printf 'def broken(\n  1 +\n' > "$tmp/syntax.rb"
printf 'puts "lib loaded"\n' > "$tmp/lib.rb"

check "version"                  0 "mnrb "                -- "$BIN" -v
check "long version"             0 "(mruby 3.3.0)"        -- "$BIN" --version
check "help"                     0 "Usage: mnrb"          -- "$BIN" -h
check "-e runs code"             0 "3"                    -- "$BIN" -e 'p 1 + 2'
check "two -e are two lines"     0 "12"                   -- "$BIN" -e 'x = 12' -e 'p x'
check "ARGV after -e"            0 '["a", "b"]'           -- "$BIN" -e 'p ARGV' a b
check "\$0 is -e"                0 "-e"                   -- "$BIN" -e 'puts $0'
check "script ARGV"              0 '["x", "--y"]'         -- "$BIN" "$tmp/args.rb" x --y
check "script \$0"               0 "args.rb"              -- "$BIN" "$tmp/args.rb"
check "-- ends options"          0 '["-v"]'               -- "$BIN" -- "$tmp/args.rb" -v
check "-r loads first"           0 "lib loaded"           -- "$BIN" -r "$tmp/lib.rb" -e 'nil'
check "-I dir is searched"       0 "lib loaded"           -- "$BIN" -I "$tmp" -e 'require "lib"'
check "-Idir joined"             0 "lib loaded"           -- "$BIN" -I"$tmp" -e 'require "lib"'
check "-I is expanded"          0 "true"                 -- "$BIN" -I some/dir -e 'p $:.first == File.expand_path("some/dir")'
check "-r requires via -I"       0 "lib loaded"           -- "$BIN" -I "$tmp" -r lib -e 'nil'
check "-r twice loads once"      0 "1"                    -- "$BIN" -I "$tmp" -r lib -r lib.rb -e 'p $LOADED_FEATURES.count { |f| f.end_with?("/lib.rb") }'
check "-r unknown feature"       1 "cannot load such file -- nope (LoadError)" -- "$BIN" -r nope -e 'nil'
check "-r built-in feature"      0 "false"                -- "$BIN" -r benchmark -e 'p require("benchmark")'
check "RUBYLIB is on \$LOAD_PATH" 0 "lib loaded"          -- env RUBYLIB="/nonexistent:$tmp" "$BIN" -e 'require "lib"'
check "-I comes before RUBYLIB"  0 '"/i"'                 -- env RUBYLIB=/r "$BIN" -I /i -e 'p $:.first'
check "-w sets \$VERBOSE"        0 "true"                 -- "$BIN" -w -e 'p $VERBOSE'
check "\$VERBOSE is false by default" 0 "false"        -- "$BIN" -e 'p $VERBOSE'
check "-d sets \$DEBUG and \$VERBOSE" 0 "[true, true]"  -- "$BIN" -d -e 'p [$DEBUG, $VERBOSE]'
check "-W0 silences warn"     0 "quiet"                -- sh -c "'$BIN' -W0 -e 'warn 1' 2>&1 | grep -q 1 || echo quiet"
check "-W0 -W1 -W2 -W set \$VERBOSE" 0 "nil false true true" \
  -- sh -c "for w in -W0 -W1 -W2 -W; do '$BIN' \$w -e 'print \$VERBOSE.inspect, \" \"'; done | sed 's/ \$//'"
printf 'require_relative "circ_b"\n' > "$tmp/circ_a.rb"
printf 'require_relative "circ_a"\n' > "$tmp/circ_b.rb"
check "-w warns of a circular require" 0 "circ_b.rb:1: warning: loading in progress, circular require considered harmful - " \
  -- "$BIN" -w -e "require '$tmp/circ_a'"
check "no circular warning without -w" 0 "quiet"          -- sh -c "'$BIN' -e \"require '$tmp/circ_a'\" 2>&1 | grep -q warning || echo quiet"
check "missing script"           1 "No such file"         -- "$BIN" "$tmp/none.rb"
check "unknown option"           1 "invalid option"       -- "$BIN" --frobnicate
check "syntax error names line"  1 "syntax.rb:"           -- "$BIN" "$tmp/syntax.rb"
check "exit status"              7 ""                     -- "$BIN" -e 'exit 7'
check "uncaught exception"       1 "boom (RuntimeError)"  -- "$BIN" -e 'raise "boom"'
check "--max-proc accepted"      0 "ok"                   -- "$BIN" --max-proc=1 -e 'Thread.new { 1 }.join; puts "ok"'
check "--max-proc rejects 0"     2 "invalid value"        -- "$BIN" --max-proc=0 -e 'nil'
check "--timeslice accepted"     0 "ok"                   -- "$BIN" --timeslice=5 -e 'puts "ok"'
check "--timeslice rejects text" 2 "invalid value"        -- "$BIN" --timeslice=fast -e 'nil'
check "RUBY_MN_THREADS=0 runs"   0 "42"                   -- env RUBY_MN_THREADS=0 "$BIN" -e 'p Thread.new { 42 }.value'
check "RUBY_MAX_PROC=1 runs"     0 "42"                   -- env RUBY_MAX_PROC=1 "$BIN" -e 'p Thread.new { 42 }.value'
check "1:1 threads own native threads" 0 "true" -- env RUBY_MN_THREADS=0 "$BIN" -e \
  'q = Queue.new; ids = 3.times.map { Thread.new { q.pop; Thread.current.native_thread_id } }; 3.times { q << 1 }; v = ids.map(&:value); p v.uniq.size == 3'
check "reads the script from stdin" 0 "stdin ok"         -- sh -c "echo 'puts \"stdin ok\"' | '$BIN'"
check "--trace writes a trace"   0 "traced"               -- sh -c "'$BIN' --trace='$tmp/t.pftrace' -e 'Thread.new { }.join' && test -s '$tmp/t.pftrace' && echo traced"
check "--trace with an error exit" 1 "traced"             -- sh -c "'$BIN' --trace='$tmp/e.pftrace' -e 'raise \"x\"' 2>/dev/null; s=\$?; test -s '$tmp/e.pftrace' && echo traced; exit \$s"
check "--trace to a bad path"    2 "cannot trace to"      -- "$BIN" --trace=/nonexistent-dir/t.pftrace -e 'nil'
# a runtime that cannot start says why (4 descriptors: the libraries load, the event loop's do not)
check "the runtime's start failing says why" 1 "mnrb: cannot start the runtime: Too many open files" \
  -- bash -c 'ulimit -n 4; exec "$0" -e nil 3<&- 4<&-' "$BIN"
check "--trace-flight needs --trace" 2 "needs --trace"    -- "$BIN" --trace-flight=4 -e 'nil'
check "--trace-flight rejects 0" 2 "invalid value"        -- "$BIN" --trace="$tmp/f.pftrace" --trace-flight=0 -e 'nil'

printf 'p DATA.read\np DATA.class, DATA.path.end_with?("data.rb")\n__END__\nline 1\nline 2\n' > "$tmp/data.rb"
printf 'p DATA.read\n__END__' > "$tmp/data_eof.rb"
printf 'x = <<~T\n  __END__\nT\np defined?(DATA), x\n' > "$tmp/no_data.rb"
printf 'p defined?(DATA)\ns = "\n__END__\n"\n' > "$tmp/no_data2.rb"
check "DATA reads after __END__" 0 '"line 1\nline 2\n"' -- "$BIN" "$tmp/data.rb"
check "DATA is the script's File" 0 'File
true'                                                   -- "$BIN" "$tmp/data.rb"
check "DATA at a last __END__"   0 '""'                   -- "$BIN" "$tmp/data_eof.rb"
check "no DATA without __END__"  0 'nil
"__END__\n"'                                             -- "$BIN" "$tmp/no_data.rb"
check "no DATA from a string"    0 'nil'                  -- "$BIN" "$tmp/no_data2.rb"
check "no DATA for -e"           0 'nil'                  -- "$BIN" -e 'p defined?(DATA)'

# CRuby's switches (expected output as `ruby` 3.1 and 3.3 print it for the same command)
printf 'root:x:0\nbob:y:1\n\nal:z:2\n' > "$tmp/lines.txt"
printf 'junk line\n#!/usr/bin/env ruby\np __LINE__\n' > "$tmp/shebang.txt"
check "-n loops over lines"       0 "bob:y:1"             -- "$BIN" -ne 'print if /b/' "$tmp/lines.txt"
check "-n skips what does not match" 0 "quiet"           -- sh -c "'$BIN' -ne 'print if /b/' '$tmp/lines.txt' | grep -q root || echo quiet"
check "-p prints each line"       0 "ROOT:X:0
BOB:Y:1"                                                  -- "$BIN" -pe '$_.upcase!' "$tmp/lines.txt"
check "-p: next skips the print"  0 "root:x:0

al:z:2"                                                   -- "$BIN" -pe 'next if /b/' "$tmp/lines.txt"
check "-n reads stdin"            0 '"a\n"'               -- sh -c "echo a | '$BIN' -ne 'p \$_'"
check "BEGIN and END around -n"   0 "4"                   -- "$BIN" -ne 'BEGIN { n = 0 }; n += 1; END { p n }' "$tmp/lines.txt"
check "-l chomps, \$\\ ends print" 0 '"bob:y:1"'          -- "$BIN" -lne 'p $_ if /b/' "$tmp/lines.txt"
check "-a splits into \$F"        0 '["a", "b"]'          -- sh -c "echo 'a b' | '$BIN' -ane 'p \$F'"
check "-F sets \$; for -a"        0 '["bob", "y", "1"]'   -- "$BIN" -F: -lane 'p $F if /b/' "$tmp/lines.txt"
check "-F is a Regexp"            0 "/:/"                 -- "$BIN" -F: -e 'p $;'
check "\$-p \$-l \$-a"            0 "[true, true, true]"  -- sh -c "echo x | '$BIN' -lape 'p [\$-p, \$-l, \$-a]'"
check "\$. counts lines"          0 "4"                   -- "$BIN" -ne 'END { p $. }' "$tmp/lines.txt"
check "-00 reads paragraphs"      0 '"root:x:0\nbob:y:1\n\n"' -- "$BIN" -00 -ne 'p $_ if /b/' "$tmp/lines.txt"
check "-0777 slurps"              0 "nil"                 -- "$BIN" -0777 -e 'p $/'
check "-l \$\\ is \$/"           0 '"\n"'                -- "$BIN" -l -e 'p $\'
check "-c says Syntax OK"         0 "Syntax OK"           -- "$BIN" -c -e 'p 1'
check "-c runs nothing"           0 "quiet"               -- sh -c "'$BIN' -c -e 'puts :ran' | grep -q ran || echo quiet"
check "-c reports a syntax error" 1 "syntax error"        -- "$BIN" -c -e 'p('
check "-s sets switch globals"    0 '[true, "3", ["a", "-v"]]' -- "$BIN" -s -e 'p [$x, $y_z, ARGV]' -- -x -y-z=3 a -v
check "-x skips to #!ruby"        0 "3"                   -- "$BIN" -x "$tmp/shebang.txt"
check "-C changes directory"      0 '"/"'                 -- "$BIN" -C / -e 'p Dir.pwd'
check "-v then the script"        0 "mnrb 0.1.0"          -- "$BIN" -v -e 'p $VERBOSE'
check "-v sets \$VERBOSE"         0 "true"                -- "$BIN" -v -e 'p $VERBOSE'
check "combined -rlib"            0 "lib loaded"          -- "$BIN" -I"$tmp" -rlib -e 'nil'
check "--disable-gems accepted"   0 "1"                   -- "$BIN" --disable-gems -e 'p 1'
check "--disable=gems,did_you_mean" 0 "2"                 -- "$BIN" --disable=gems,did_you_mean -e 'p 2'
check "RUBYOPT -r"                0 "lib loaded"          -- env RUBYOPT="-I$tmp -rlib" "$BIN" -e 'nil'
check "--disable=rubyopt"         0 "quiet"               -- sh -c "RUBYOPT=-rnope '$BIN' --disable=rubyopt -e 'puts :quiet'"
check "RUBYOPT refuses -e"        1 "invalid switch in RUBYOPT: -e" -- env RUBYOPT="-e1" "$BIN" -e 'nil'
check "invalid letter"            1 "invalid option -z"   -- "$BIN" -z
check "-e without code"           1 "no code specified for -e" -- "$BIN" -e
check "END in a method warns"     0 "warning: END in method; use at_exit" -- "$BIN" -e 'def m; END { }; end'

printf 'a1\nb2\n' > "$tmp/e1.txt"; printf 'c3\n' > "$tmp/e2.txt"; chmod 640 "$tmp/e2.txt"
check "-i.bak edits in place"     0 "a10
b20
c30
a1
b2
640"                                                      -- sh -c "'$BIN' -i.bak -pe 'gsub(/\\d/) { |m| (m.to_i * 10).to_s }' '$tmp/e1.txt' '$tmp/e2.txt' && cat '$tmp/e1.txt' '$tmp/e2.txt' '$tmp/e1.txt.bak' && stat -c %a '$tmp/e2.txt'"
check "-i without a backup"       0 "a10
no backup"                                                -- sh -c "'$BIN' -i -ne 'print unless /b/' '$tmp/e1.txt' && cat '$tmp/e1.txt' && ls '$tmp' | grep -q 'e1.txt.$' || echo 'no backup'"
check "-i sets \$-i"              0 '[".orig", ".orig"]'   -- "$BIN" -i.orig -e 'p [$-i, ARGF.inplace_mode]'
check "-n's sub and chomp on \$_" 0 '"xb!"'               -- sh -c "echo ab | '$BIN' -ne 'chomp; sub(\"a\", \"x\"); p \$_ + \"!\"'"

check "-p's gsub block sees \$1"   0 "a11b22"             -- sh -c "echo a1b2 | '$BIN' -pe 'gsub(/(\\d)/) { \$1 * 2 }'"
check "-n's gsub of a nil \$_"    1 "\$_ value need to be String (nil given) (TypeError)" -- sh -c "echo x | '$BIN' -ne '\$_ = nil; gsub(\"a\", \"b\")'"

check_summary
