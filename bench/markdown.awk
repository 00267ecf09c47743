# make bench's output (bench/run.sh) as docs/BENCHMARKS.md: a heading and the machine, then each
# block of the run as it printed it. Lines that start a block (not indented, not a table row) are
# its text; indented lines are results, kept in a code block; table rows (|...|) stay a table;
# "Chart: FILE" results become pictures (paths relative to docs/).
function close_code() { if (code) { print "```"; code = 0 } }
BEGIN { code = 0; text = 0 }
NR == 1 {
  print "# Benchmarks"
  print ""
  print "Written by `make bench` (bench/run.sh, bench/io.sh, bench/seed001.sh): every system measured in the"
  print "same run on the same machine; compare ratios within this run, not absolute times across runs."
  print "What each change did, what was tried and why a target is missed: [PERFORMANCE.md](PERFORMANCE.md)."
  print ""
  print "**" $0 "**"
  next
}
/^[ \t]*Chart: / {
  close_code()
  f = $0; sub(/^[ \t]*Chart: /, "", f); sub(/^docs\//, "", f)
  print ""; print "![" f "](" f ")"; text = 0
  next
}
/^\|/ { close_code(); if (!table) print ""; table = 1; print; text = 0; next }
{ table = 0 }
/^$/ { close_code(); text = 0; next }
/^[ \t]/ {
  if (!code) { print ""; print "```"; code = 1 }
  line = $0; sub(/^  /, "", line); print line; text = 0
  next
}
{
  close_code()
  if (!text) print ""
  print $0; text = 1
}
END { close_code() }
