package monitor_test

import (
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/server/monitor"
)

// TestLibrary_Official2022ContestReplaysPlay serves the folder
// $MASSIM_OFFICIAL_REPLAYS (the 18 replays of the 2022 contest, not in the
// repository) as the viewer does and reads every step of every replay
// through the page's endpoints: the index, then every segment, decoded.
//
//	MASSIM_OFFICIAL_REPLAYS=/path/to/replays_2022c go test -run Official2022 -v ./server/monitor/
func TestLibrary_Official2022ContestReplaysPlay(t *testing.T) {
	root := os.Getenv("MASSIM_OFFICIAL_REPLAYS")
	if root == "" {
		t.Skip("set MASSIM_OFFICIAL_REPLAYS to a folder of official replays")
	}
	ts := startLibrary(t, root)
	var list []monitor.LibraryEntry
	getJSON(t, ts.URL+"/replays/index.json", &list)
	require.NotEmpty(t, list)
	for _, e := range list {
		assert.False(t, e.Incomplete, e.ID)
		var idx struct {
			Last     int
			Complete bool
			Segments []int
			Static   struct{ Grid struct{ Width, Height int } }
		}
		getJSON(t, ts.URL+"/replays/"+e.ID+"/index.json", &idx)
		assert.True(t, idx.Complete, e.ID)
		steps := 0
		for _, g := range idx.Segments {
			body := segmentBody(t, ts.URL+"/replays/"+e.ID+"/seg/"+strconv.Itoa(g))
			for _, st := range decodeRecords(t, body, idx.Static.Grid.Width, idx.Static.Grid.Height) {
				require.Equal(t, steps-1, st.Snapshot.Step, e.ID)
				steps++
			}
		}
		assert.Equal(t, idx.Last+2, steps, "%s: every step from -1", e.ID)
		t.Logf("%s: %d steps, %d teams, final %v", e.ID, steps, len(e.Teams), e.Scores)
	}
}
