package monitor_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/server/monitor"
	"github.com/massim-go/massim/sim"
)

// countingConn counts the bytes a websocket client reads off the wire
// (after permessage-deflate, before any decoding).
type countingConn struct {
	net.Conn
	n *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// BenchmarkLiveFrameBytes_Contest plays 100 steps of the contest example
// (config/examples/contest/contest.json: 2 × 20 agents on islands70) into a
// hub that sends every step, with one viewer of /live/frames (our page's
// feed) and one of /live/monitor (the official feed, as before), both with
// permessage-deflate, and reports the bytes on the wire per step of each:
//
//	go test -run XXX -bench LiveFrameBytes ./server/monitor/
func BenchmarkLiveFrameBytes_Contest(b *testing.B) {
	cfg, err := config.Load("../../config/examples/contest/contest.json")
	require.NoError(b, err)
	const steps = 100
	var frames, official, frameMsgs, officialMsgs, plain int64
	for b.Loop() {
		hub := monitor.NewHub(monitor.Options{FrameInterval: -1, ViewerQueue: 1 << 12})
		obs := hub.Observer()
		mux := http.NewServeMux()
		monitor.Mount(mux, monitor.Routes{Hub: hub})
		ts := httptest.NewServer(mux)
		read := func(path string, bytes, msgs *atomic.Int64) func() {
			var wire atomic.Int64
			d := websocket.Dialer{EnableCompression: true, NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
				return countingConn{c, &wire}, err
			}}
			c, _, err := d.Dial("ws"+strings.TrimPrefix(ts.URL, "http")+path, nil)
			require.NoError(b, err)
			done := make(chan struct{})
			go func() {
				defer close(done)
				for {
					if _, _, err := c.ReadMessage(); err != nil {
						return
					}
					msgs.Add(1)
					bytes.Store(wire.Load())
				}
			}()
			return func() { _ = c.Close(); <-done }
		}
		var fb, fm, ob, om atomic.Int64
		stopFrames := read("/live/frames", &fb, &fm)
		stopOfficial := read("/live/monitor", &ob, &om)
		for hub.Viewers() < 2 {
			time.Sleep(time.Millisecond)
		}
		info := sim.Info{Name: "contest", Steps: steps}
		plain = 0
		_, err := matchtest.Play(cfg, 0, matchtest.Options{Steps: steps, Seed: 1, Players: 2,
			Observer: func(snap *scenario.Snapshot, _ []codec.Answer) {
				if snap.Step < 0 {
					static := scenario.Static{Sim: "contest", Width: 70, Height: 70, Teams: []string{"A", "B"}, BlockTypes: []string{"b0", "b1"}, MaxEnergy: 100, Steps: steps}
					obs.SimulationStarted(info, static, snap)
					return
				}
				obs.StepDone(info, snap)
				doc, _ := json.Marshal(snap)
				plain += int64(len(doc)) // what the official feed sent before, without compression
			}})
		require.NoError(b, err)
		obs.SimulationEnded(info, sim.Result{})
		deadline := time.Now().Add(30 * time.Second)
		for (fm.Load() < steps+1 || om.Load() < steps+2) && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		stopFrames()
		stopOfficial()
		_ = obs.Close()
		hub.Close()
		ts.Close()
		frames, official, frameMsgs, officialMsgs = fb.Load(), ob.Load(), fm.Load(), om.Load()
	}
	b.ReportMetric(float64(frames)/steps, "frames-B/step")
	b.ReportMetric(float64(official)/steps, "official-B/step")
	b.ReportMetric(float64(plain)/steps, "uncompressed-json-B/step")
	b.ReportMetric(float64(frameMsgs), "frames-msgs")
	b.ReportMetric(float64(officialMsgs), "official-msgs")
}
