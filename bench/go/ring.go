// The seed's ring in Go for comparison: N goroutines, one unbuffered channel each, a token passed
// LAPS times around. Goroutine creation is excluded from the ring time.
//
//	go run ring.go -n 10000 -laps 1000
package main

import (
	"flag"
	"fmt"
	"time"
)

func main() {
	n := flag.Int("n", 10000, "goroutines in the ring")
	laps := flag.Int("laps", 1000, "times the token goes around")
	flag.Parse()

	inboxes := make([]chan int, *n)
	for i := range inboxes {
		inboxes[i] = make(chan int)
	}
	done := make(chan struct{})
	for i := 0; i < *n; i++ {
		in, out := inboxes[i], inboxes[(i+1)%*n]
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
	fmt.Printf("ring n=%d laps=%d: %.3f s, %.1f ns/hand-off\n", *n, *laps, elapsed.Seconds(),
		float64(elapsed.Nanoseconds())/float64(hops))
}
