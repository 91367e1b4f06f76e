package monitor_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/server/monitor"
)

func startLibrary(t *testing.T, root string) *httptest.Server {
	t.Helper()
	lib, err := monitor.NewLibrary(root)
	require.NoError(t, err)
	mux := http.NewServeMux()
	monitor.Mount(mux, monitor.Routes{Replays: lib})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

func TestLibrary_ListsAndServesReplaysInTheOfficialLayout(t *testing.T) {
	ts := startLibrary(t, "../../replays/testdata/official")
	var list []monitor.LibraryEntry
	getJSON(t, ts.URL+"/replays/index.json", &list)
	require.Len(t, list, 1)
	id := list[0].ID
	assert.Equal(t, monitor.LibraryEntry{ID: "2000-01-01-12-00-00-946728000000_Alpha_Beta", Sim: "946728000000_Alpha_Beta",
		Teams: []string{"Alpha", "Beta"}, Steps: 8, Width: 12, Height: 12}, list[0])

	var idx map[string]any
	getJSON(t, ts.URL+"/replays/"+id+"/index.json", &idx)
	assert.Equal(t, 7.0, idx["last"])
	assert.Equal(t, true, idx["finished"])
	var group map[string]any
	getJSON(t, ts.URL+"/replays/"+id+"/5.json", &group)
	assert.Len(t, group, 3)
	var scores struct {
		Steps  []int
		Scores [][]int64
	}
	getJSON(t, ts.URL+"/replays/"+id+"/scores.json", &scores)
	assert.Equal(t, []int{-1, 0, 1, 2, 3, 4, 5, 6, 7}, scores.Steps)
	assert.Equal(t, []int64{0, 10}, scores.Scores[8])
	var info map[string]bool
	getJSON(t, ts.URL+"/info.json", &info)
	assert.Equal(t, map[string]bool{"live": false, "replays": true}, info)
}

func TestLibrary_ServesOnlyListedReplayFiles(t *testing.T) {
	ts := startLibrary(t, "../../replays/testdata/official")
	for _, path := range []string{
		"/replays/unknown/static.json",
		"/replays/2000-01-01-12-00-00-946728000000_Alpha_Beta/10.json", // no such group
		"/replays/2000-01-01-12-00-00-946728000000_Alpha_Beta/3.json",  // not a group name
		"/replays/2000-01-01-12-00-00-946728000000_Alpha_Beta/..%2F..%2Freader.go",
		"/replays/..%2F..%2F..%2Freplays/reader.go",
		"/live/monitor", // no hub mounted
	} {
		resp, err := http.Get(ts.URL + path)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.NotEqual(t, http.StatusOK, resp.StatusCode, path)
		assert.NotContains(t, string(body), "package replays", path)
	}
}

func TestLibrary_AFolderThatIsOneReplayIsListedByItsName(t *testing.T) {
	dir := filepath.Join("../../replays/testdata/official", "2000-01-01-12-00-00-946728000000_Alpha_Beta")
	ts := startLibrary(t, dir)
	var list []monitor.LibraryEntry
	getJSON(t, ts.URL+"/replays/index.json", &list)
	require.Len(t, list, 1)
	assert.Equal(t, "2000-01-01-12-00-00-946728000000_Alpha_Beta", list[0].ID)
	var static map[string]any
	getJSON(t, ts.URL+"/replays/"+list[0].ID+"/static.json", &static)
	assert.Equal(t, "946728000000_Alpha_Beta", static["sim"])
}
