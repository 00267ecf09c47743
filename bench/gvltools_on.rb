# Loaded with -r by bench/gvltools-overhead.sh: every GVL metric on for the script that follows.
%w(GlobalTimer LocalTimer WaitingThreads Stats).each { |m| GVLTools.const_get(m).enable }
