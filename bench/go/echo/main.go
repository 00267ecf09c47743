// Echo server and load generator for `make bench` (loopback only).
//
//	echo server PORTFILE                 a goroutine per connection, echoing lines
//	echo load PORTFILE CONNS MSGS        opens CONNS connections (all held at once), then each sends
//	                                     MSGS lines one at a time and checks every echo
package main

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

func serve(portfile string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	os.WriteFile(portfile+".tmp", []byte(strconv.Itoa(port)), 0o644)
	os.Rename(portfile+".tmp", portfile)
	for {
		c, err := ln.Accept()
		if err != nil {
			continue
		}
		go func(c net.Conn) {
			defer c.Close()
			r := bufio.NewReader(c)
			for {
				line, err := r.ReadBytes('\n')
				if err != nil {
					return
				}
				if _, err := c.Write(line); err != nil {
					return
				}
			}
		}(c)
	}
}

func load(portfile string, conns, msgs int) {
	port, _ := os.ReadFile(portfile)
	addr := "127.0.0.1:" + string(port)
	sockets := make([]net.Conn, conns)
	var failed int64
	var wg sync.WaitGroup
	dial := make(chan struct{}, 256) // at most 256 handshakes in flight (the accept queue is finite)
	t0 := time.Now()
	for i := range sockets {
		wg.Add(1)
		dial <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-dial }()
			c, err := net.DialTimeout("tcp", addr, 30*time.Second)
			if err != nil {
				atomic.AddInt64(&failed, 1)
				return
			}
			sockets[i] = c
		}(i)
	}
	wg.Wait()
	connected := time.Since(t0)
	held := 0
	for _, c := range sockets {
		if c != nil {
			held++
		}
	}
	var answered, wrong int64
	t1 := time.Now()
	for i, c := range sockets {
		if c == nil {
			continue
		}
		wg.Add(1)
		go func(i int, c net.Conn) {
			defer wg.Done()
			r := bufio.NewReader(c)
			for k := 0; k < msgs; k++ {
				want := fmt.Sprintf("%d-%d\n", i, k)
				c.SetDeadline(time.Now().Add(60 * time.Second))
				if _, err := c.Write([]byte(want)); err != nil {
					atomic.AddInt64(&wrong, 1)
					return
				}
				got, err := r.ReadString('\n')
				if err != nil || got != want {
					atomic.AddInt64(&wrong, 1)
					return
				}
				atomic.AddInt64(&answered, 1)
			}
		}(i, c)
	}
	wg.Wait()
	busy := time.Since(t1)
	for _, c := range sockets {
		if c != nil {
			c.Close()
		}
	}
	fmt.Printf("connections held %d/%d (connect %.2f s), answered %d/%d, lost or wrong %d, %.0f req/s\n",
		held, conns, connected.Seconds(), answered, int64(held*msgs), wrong+failed,
		float64(answered)/busy.Seconds())
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: echo server PORTFILE | echo load PORTFILE CONNS MSGS")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "server":
		serve(os.Args[2])
	case "load":
		conns, _ := strconv.Atoi(os.Args[3])
		msgs, _ := strconv.Atoi(os.Args[4])
		load(os.Args[2], conns, msgs)
	}
}
