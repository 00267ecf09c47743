# `exit 3` ends the script with a SystemExit, which at_exit handlers see as $!.
# expect-status: 3
# expect-stdout: SystemExit 3
at_exit { puts "#{$!.class} #{$!.status}" }
exit 3
