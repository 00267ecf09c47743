// The seed's ring in Go for comparison: N goroutines, one unbuffered channel each, a token passed
// LAPS times around. Goroutine creation is excluded from the ring time.
//
//	go run ring.go -n 10000 -laps 1000 [-shuffled]
//
// -shuffled passes the token along the same fixed random cycle as bench/ring.rb's "shuffled"
// (Fisher-Yates driven by the 31-bit LCG x = (x*1103515245 + 12345) mod 2^31 from x = 42) instead
// of creation order.
package main

import (
	"flag"
	"fmt"
	"time"
)

func main() {
	n := flag.Int("n", 10000, "goroutines in the ring")
	laps := flag.Int("laps", 1000, "times the token goes around")
	shuffled := flag.Bool("shuffled", false, "pass the token along a fixed random cycle")
	flag.Parse()

	succ := make([]int, *n)
	for i := range succ {
		succ[i] = (i + 1) % *n
	}
	if *shuffled {
		order := make([]int, *n)
		for i := range order {
			order[i] = i
		}
		x := int64(42)
		for i := *n - 1; i >= 1; i-- {
			x = (x*1103515245 + 12345) % 2147483648
			j := int(x % int64(i+1))
			order[i], order[j] = order[j], order[i]
		}
		for k := 0; k < *n; k++ {
			succ[order[k]] = order[(k+1)%*n]
		}
	}
	label := ""
	if *shuffled {
		label = " shuffled"
	}

	inboxes := make([]chan int, *n)
	for i := range inboxes {
		inboxes[i] = make(chan int)
	}
	done := make(chan struct{})
	for i := 0; i < *n; i++ {
		in, out := inboxes[i], inboxes[succ[i]]
		go func() {
			for v := range in {
				if v == 0 {
					done <- struct{}{}
				} else {
					out <- v - 1
				}
			}
		}()
	}
	hops := *n * *laps
	start := time.Now()
	inboxes[0] <- hops - 1
	<-done
	elapsed := time.Since(start)
	fmt.Printf("ring n=%d laps=%d%s: %.3f s, %.1f ns/hand-off\n", *n, *laps, label, elapsed.Seconds(),
		float64(elapsed.Nanoseconds())/float64(hops))
}
