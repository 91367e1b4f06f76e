// Command probe is a team command that measures how its agents fare, for
// the sandbox benchmarks of cmd/massim (docs/untrusted-teams.md, "Fair
// time"): each agent answers every request-action with skip after a fixed
// amount of work (-work rounds of SHA-256 over 1 KiB), and at the end of
// the simulation the program prints one line:
//
//	probe: answers N latency p50 P p99 Q ms compute p50 R ms cpu S ms/step
//
// latency is from the request-action's time stamp (the server's clock when
// it sent the step, in whole milliseconds) to the answer; compute from
// reading the request-action to the answer; cpu the program's CPU time
// (user and system) per step.
package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"
)

func main() {
	work := flag.Int("work", 200, "rounds of SHA-256 over 1 KiB per answer")
	flag.Parse()
	n, _ := strconv.Atoi(os.Getenv("MASSIM_AGENTS"))
	p := &probe{work: *work, steps: map[int]bool{}}
	var wg sync.WaitGroup
	for i := 1; i <= n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.agent(os.Getenv("MASSIM_PREFIX") + os.Getenv("MASSIM_TEAM") + strconv.Itoa(i))
		}()
	}
	// The line is printed once, when every agent has seen its simulation
	// end, or at SIGTERM (the match over, an agent that missed it).
	var once sync.Once
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	go func() {
		<-term
		once.Do(p.report)
		os.Exit(0)
	}()
	wg.Wait()
	once.Do(p.report)
	select {} // until stopped
}

type probe struct {
	work      int
	mu        sync.Mutex
	latency   []float64 // ms
	compute   []float64 // ms
	steps     map[int]bool
	cpuAtStep time.Duration // CPU time at the first request-action
	started   bool
}

func (p *probe) agent(user string) {
	var conn net.Conn
	var err error
	for try := 0; try < 600; try++ {
		if conn, err = net.Dial("tcp", net.JoinHostPort(os.Getenv("MASSIM_HOST"), os.Getenv("MASSIM_PORT"))); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		fmt.Println("probe:", err)
		return
	}
	defer conn.Close()
	send(conn, map[string]any{"type": "auth-request", "content": map[string]string{"user": user, "pw": os.Getenv("MASSIM_PASSWORD")}})
	r := bufio.NewReader(conn)
	block := make([]byte, 1024)
	for {
		frame, err := r.ReadBytes(0)
		if err != nil {
			return
		}
		got := time.Now()
		var msg struct {
			Type    string `json:"type"`
			Content struct {
				ID   int   `json:"id"`
				Time int64 `json:"time"`
				Step int   `json:"step"`
			} `json:"content"`
		}
		if json.Unmarshal(frame[:len(frame)-1], &msg) != nil {
			continue
		}
		switch msg.Type {
		case "request-action":
			p.first()
			sum := sha256.Sum256(block)
			for i := 1; i < p.work; i++ {
				sum = sha256.Sum256(append(block[:0:0], sum[:]...))
			}
			send(conn, map[string]any{"type": "action", "content": map[string]any{"id": msg.Content.ID, "type": "skip", "p": []string{}}})
			done := time.Now()
			p.mu.Lock()
			p.latency = append(p.latency, float64(done.UnixMicro()-msg.Content.Time*1000)/1000)
			p.compute = append(p.compute, float64(done.Sub(got).Microseconds())/1000)
			p.steps[msg.Content.Step] = true
			p.mu.Unlock()
		case "sim-end", "bye":
			return
		}
	}
}

func (p *probe) first() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.started {
		p.started, p.cpuAtStep = true, cpuTime()
	}
}

func (p *probe) report() {
	p.mu.Lock()
	defer p.mu.Unlock()
	cpu := cpuTime() - p.cpuAtStep
	steps := max(1, len(p.steps))
	fmt.Printf("probe: answers %d latency p50 %.2f p99 %.2f ms compute p50 %.2f p99 %.2f ms cpu %.2f ms/step\n",
		len(p.latency), pct(p.latency, 50), pct(p.latency, 99), pct(p.compute, 50), pct(p.compute, 99),
		float64(cpu.Microseconds())/1000/float64(steps))
}

func pct(xs []float64, q int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*q/100)]
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func send(conn net.Conn, msg any) {
	data, _ := json.Marshal(msg)
	_, _ = conn.Write(append(data, 0))
}
