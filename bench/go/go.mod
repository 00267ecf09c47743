module mnrb/bench/ring

go 1.19
