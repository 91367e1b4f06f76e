package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Fault tests (docs/protocol.md, "Slow links and dead connections"): the
// random sample team's agents play through toxiproxy with one fault each;
// every test checks that the match finishes, that every action that
// reached the server is accounted for and every in-time one executed as
// sent (faultRig.account), that healthy agents never miss a deadline,
// and that the live heap stays bounded.

const faultHeapBound = 32 << 20

// checkHealthy requires that none of users missed a deadline.
func checkHealthy(t *testing.T, rows []accounting, users ...string) {
	t.Helper()
	for _, row := range rows {
		for _, u := range users {
			if row.user == u {
				assert.Zero(t, row.stats.Timeouts+row.stats.Late+row.stats.Offline, "%s missed a deadline", u)
			}
		}
	}
}

// checkNoneLost requires that every action a client sent reached the server.
func checkNoneLost(t *testing.T, rows []accounting) {
	t.Helper()
	for _, row := range rows {
		assert.Zero(t, row.lost, "%s: actions sent but not received", row.user)
	}
}

// Latency of 300 ms ± 150 ms each way on every link: every answer is in
// time (agentTimeout 3 s), none is lost.
func TestFaults_LatencyOnEveryLink(t *testing.T) {
	cfg := testConfig(t, 3000, 8, 3)
	r := newFaultRig(t, cfg, Options{})
	r.toxic("latency-down", "latency", "downstream", `{"latency": 300, "jitter": 150}`, r.users...)
	r.toxic("latency-up", "latency", "upstream", `{"latency": 300, "jitter": 150}`, r.users...)
	r.connect()
	r.ts.start()
	r.finish()
	rows := r.account()
	r.report("latency 300±150 ms", rows)
	checkNoneLost(t, rows)
	checkHealthy(t, rows, r.users...)
	r.checkMemory(faultHeapBound)
}

// 64 KB/s per agent, both ways: percepts arrive slower, answers still in time.
func TestFaults_BandwidthLimit(t *testing.T) {
	cfg := testConfig(t, 3000, 20, 3)
	r := newFaultRig(t, cfg, Options{})
	r.toxic("bw-down", "bandwidth", "downstream", `{"rate": 64}`, r.users...)
	r.toxic("bw-up", "bandwidth", "upstream", `{"rate": 64}`, r.users...)
	r.connect()
	r.ts.start()
	r.finish()
	rows := r.account()
	r.report("bandwidth 64 KB/s", rows)
	checkNoneLost(t, rows)
	checkHealthy(t, rows, r.users...)
	r.checkMemory(faultHeapBound)
}

// The server's frames reach every agent one byte at a time.
func TestFaults_ByteByByte(t *testing.T) {
	cfg := testConfig(t, 3000, 15, 3)
	r := newFaultRig(t, cfg, Options{})
	r.toxic("slicer", "slicer", "downstream", `{"average_size": 1, "size_variation": 0, "delay": 0}`, r.users...)
	r.connect()
	r.ts.start()
	r.finish()
	rows := r.account()
	r.report("one byte at a time", rows)
	checkNoneLost(t, rows)
	checkHealthy(t, rows, r.users...)
	r.checkMemory(faultHeapBound)
}
