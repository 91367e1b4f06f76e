package monitor_test

import (
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/server/monitor"
	"github.com/massim-go/massim/sim"
)

// framesViewer reads /live/frames and decodes what it gets.
type framesViewer struct {
	c    *websocket.Conn
	dec  *codec.Decoder
	meta map[string]json.RawMessage
}

func dialFrames(t *testing.T, url string) (*framesViewer, string) {
	t.Helper()
	d := websocket.Dialer{EnableCompression: true}
	c, resp, err := d.Dial("ws"+strings.TrimPrefix(url, "http")+"/live/frames", nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return &framesViewer{c: c}, resp.Header.Get("Sec-Websocket-Extensions")
}

// next reads one message: the meta document or the steps it carries.
func (v *framesViewer) next(t *testing.T) []codec.Step {
	t.Helper()
	require.NoError(t, v.c.SetReadDeadline(time.Now().Add(10*time.Second)))
	kind, data, err := v.c.ReadMessage()
	require.NoError(t, err)
	require.Equal(t, websocket.BinaryMessage, kind)
	switch data[0] {
	case 'M':
		require.NoError(t, json.Unmarshal(data[1:], &v.meta))
		v.dec = codec.NewDecoder(100, 100)
		return nil
	case 'R':
		var out []codec.Step
		body := data[1:]
		for len(body) > 0 {
			n, k := binary.Uvarint(body)
			st, err := v.dec.Decode(body[k : k+int(n)])
			require.NoError(t, err)
			out = append(out, st)
			body = body[k+int(n):]
		}
		return out
	}
	t.Fatalf("unknown message %q", data[0])
	return nil
}

func TestFrames_LateJoinerGetsAKeyframeThenTheChangesCompressed(t *testing.T) {
	hub, ts := startHub(t, monitor.Options{FrameInterval: -1})
	hub.SimulationStarted(testSim, testStatic, testSnapshot(-1, 300))
	for s := range 5 {
		hub.StepDone(testSim, testSnapshot(s, 300))
	}
	waitUntil(t, "step 4 is recorded", func() bool { return historyLast(ts.URL) == 4 })
	v, ext := dialFrames(t, ts.URL)
	assert.Contains(t, ext, "permessage-deflate", "the monitor's websocket compresses")
	assert.Nil(t, v.next(t), "first the meta message")
	assert.JSONEq(t, `"946728000000_A_B"`, string(v.meta["sim"]))
	key := v.next(t)
	require.Len(t, key, 1)
	assert.True(t, key[0].Keyframe)
	assert.Equal(t, jsonOf(t, testSnapshot(4, 300)), jsonOf(t, key[0].Snapshot), "then a keyframe of the newest step")
	for s := 5; s < 9; s++ {
		hub.StepDone(testSim, testSnapshot(s, 300))
		got := v.next(t)
		require.Len(t, got, 1)
		assert.False(t, got[0].Keyframe, "then only changes")
		assert.Equal(t, jsonOf(t, testSnapshot(s, 300)), jsonOf(t, got[0].Snapshot))
	}
}

func TestFrames_ViewerThatFellBehindGetsAKeyframe(t *testing.T) {
	hub, ts := startHub(t, monitor.Options{FrameInterval: -1, ViewerQueue: 2, MaxLag: 1 << 20})
	hub.SimulationStarted(testSim, testStatic, testSnapshot(-1, 0))
	v, _ := dialFrames(t, ts.URL)
	assert.Nil(t, v.next(t))
	require.Len(t, v.next(t), 1) // step -1
	// Steps pile up while the viewer does not read: its socket buffers and
	// its queue fill, its changes are dropped.
	last := 0
	for s := range 4000 {
		hub.StepDone(testSim, testSnapshot(s, 400))
		last = s
	}
	waitUntil(t, "the hub has every step", func() bool { return historyLast(ts.URL) == last })
	hub.StepDone(testSim, testSnapshot(last+1, 400))
	sawKey := false
	for {
		steps := v.next(t)
		for _, st := range steps {
			sawKey = sawKey || (st.Keyframe && st.Snapshot.Step > 0)
			assert.Equal(t, jsonOf(t, testSnapshot(st.Snapshot.Step, 400)), jsonOf(t, st.Snapshot), "step %d", st.Snapshot.Step)
		}
		if len(steps) > 0 && steps[len(steps)-1].Snapshot.Step == last+1 {
			break
		}
	}
	assert.True(t, sawKey, "a viewer that fell behind continues from a keyframe")
}

// TestFrames_JoinerBetweenTwoSendsGetsOnlyLaterChanges joins while the hub
// holds changes back (coalescing): the joiner's keyframe is of the newest
// step, so the held-back changes, which are older, must not follow it
// (the page's decoder rejected them, dropped the connection and showed a
// hole in the steps until it reconnected).
func TestFrames_JoinerBetweenTwoSendsGetsOnlyLaterChanges(t *testing.T) {
	hub, ts := startHub(t, monitor.Options{FrameInterval: time.Hour})
	hub.SimulationStarted(testSim, testStatic, testSnapshot(-1, 30))
	for s := range 5 {
		hub.StepDone(testSim, testSnapshot(s, 30)) // held back: the interval is an hour
	}
	waitUntil(t, "step 4 is recorded", func() bool { return historyLast(ts.URL) == 4 })
	v, _ := dialFrames(t, ts.URL)
	assert.Nil(t, v.next(t), "first the meta message")
	key := v.next(t)
	require.Len(t, key, 1)
	assert.True(t, key[0].Keyframe)
	assert.Equal(t, 4, key[0].Snapshot.Step, "a keyframe of the newest step")
	hub.StepDone(testSim, testSnapshot(5, 30))
	hub.SimulationEnded(testSim, sim.Result{}) // sends what is held back
	got := v.next(t)
	require.Len(t, got, 1, "only the change after the keyframe")
	assert.Equal(t, jsonOf(t, testSnapshot(5, 30)), jsonOf(t, got[0].Snapshot))
}
