package monitor_test

import (
	"net/http"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/codec"
	"github.com/massim-go/massim/server/monitor"
)

// TestStep_IsTheSegmentsStepAsOneKeyframe: GET …/step/{s} answers one
// keyframe record that decodes, on its own, to what the segment decodes to
// at step s (world and answers), for a compact replay, an official replay
// folder and the live history; steps the replay does not hold are 404.
func TestStep_IsTheSegmentsStepAsOneKeyframe(t *testing.T) {
	root := t.TempDir()
	id := filepath.Base(writeCompactReplay(t, root, 250))
	compactURL := startLibrary(t, root).URL + "/replays/" + id
	official := startLibrary(t, "../../replays/testdata/official")
	var list []monitor.LibraryEntry
	getJSON(t, official.URL+"/replays/index.json", &list)
	require.Len(t, list, 1)
	officialURL := official.URL + "/replays/" + list[0].ID
	hub, live := startHub(t, monitor.Options{})
	hub.SimulationStarted(testSim, testStatic, testSnapshot(-1, 50))
	for s := range 12 {
		hub.StepDone(testSim, testSnapshot(s, 50))
	}
	waitUntil(t, "the hub recorded step 11", func() bool { return historyLast(live.URL) == 11 })
	liveURL := live.URL + "/live/history"

	for _, c := range []struct {
		name, base string
		steps      []int
		missing    []string // not steps of the replay, or not steps at all
	}{
		{"compact", compactURL, []int{-1, 0, 1, 98, 99, 100, 101, 173, 249}, []string{"250", "-2", "01", "x", "1.5"}},
		{"official", officialURL, []int{-1, 0, 3, 7}, []string{"8", "-2", "+3"}},
		{"live", liveURL, []int{-1, 0, 5, 11}, []string{"12", "-2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var idx struct {
				Static struct{ Grid struct{ Width, Height int } }
			}
			getJSON(t, c.base+"/index.json", &idx)
			w, h := idx.Static.Grid.Width, idx.Static.Grid.Height
			for _, s := range c.steps {
				got := decodeRecords(t, segmentBody(t, c.base+"/step/"+strconv.Itoa(s)), w, h)
				require.Len(t, got, 1, "step %d: one record", s)
				assert.True(t, got[0].Keyframe, "step %d: a keyframe", s)
				var want *codec.Step
				for _, st := range decodeRecords(t, segmentBody(t, c.base+"/seg/"+strconv.Itoa(codec.SegmentOf(s, 100))), w, h) {
					if st.Snapshot.Step == s {
						want = &st
					}
				}
				require.NotNil(t, want, "step %d is in its segment", s)
				assert.Equal(t, jsonOf(t, want.Snapshot), jsonOf(t, got[0].Snapshot), "step %d: the world", s)
				assert.Equal(t, jsonOf(t, want.Answers), jsonOf(t, got[0].Answers), "step %d: the answers", s)
			}
			for _, s := range c.missing {
				resp, err := http.Get(c.base + "/step/" + s)
				require.NoError(t, err)
				resp.Body.Close()
				assert.Equal(t, http.StatusNotFound, resp.StatusCode, "step %q", s)
			}
		})
	}
}
