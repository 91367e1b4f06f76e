package monitor_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/replays/compact"
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
	e := list[0]
	assert.Equal(t, "2000-01-01-12-00-00-946728000000_Alpha_Beta", id)
	assert.Equal(t, "official", e.Format)
	assert.Equal(t, []string{"Alpha", "Beta"}, e.Teams)
	assert.Equal(t, []int64{0, 10}, e.Scores, "the final scores")
	assert.Equal(t, 8, e.Steps)
	assert.Equal(t, 7, e.Last)
	assert.False(t, e.Incomplete)
	assert.Equal(t, 2000, e.Date.Year())
	assert.Positive(t, e.Size)

	var idx struct {
		Format   string
		Last     int
		Complete bool
		Segments []int
		Scores   [][]int64
	}
	getJSON(t, ts.URL+"/replays/"+id+"/index.json", &idx)
	assert.Equal(t, "official", idx.Format)
	assert.Equal(t, 7, idx.Last)
	assert.True(t, idx.Complete)
	assert.Equal(t, []int{0}, idx.Segments)
	require.Len(t, idx.Scores, 9)
	assert.Equal(t, []int64{0, 10}, idx.Scores[8])
	steps := segmentSteps(t, ts.URL+"/replays/"+id+"/seg/0")
	require.Len(t, steps, 9)
	assert.Equal(t, "attach", steps[4].Snapshot.Entities[0].Action)

	var group map[string]any
	getJSON(t, ts.URL+"/replays/"+id+"/5.json", &group)
	assert.Len(t, group, 3, "the official files stay readable as they are")
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

func TestLibrary_CompactReplaysWithTheirIndexGapsAndCache(t *testing.T) {
	root := t.TempDir()
	path := writeCompactReplay(t, root, 230)
	ts := startLibrary(t, root)
	var list []monitor.LibraryEntry
	getJSON(t, ts.URL+"/replays/index.json", &list)
	require.Len(t, list, 1)
	e := list[0]
	id := filepath.Base(path)
	assert.Equal(t, id, e.ID)
	assert.Equal(t, "compact", e.Format)
	assert.Equal(t, 230, e.Steps)
	assert.Equal(t, 229, e.Last)
	assert.False(t, e.Incomplete)
	assert.Len(t, e.Scores, 2)

	var idx struct {
		Last     int
		Segments []int
		Gaps     []struct {
			From, To int
			Error    string
		}
		Scores [][]int64
	}
	getJSON(t, ts.URL+"/replays/"+id+"/index.json", &idx)
	assert.Equal(t, []int{0, 1, 2}, idx.Segments)
	assert.Empty(t, idx.Gaps)
	assert.Len(t, segmentSteps(t, ts.URL+"/replays/"+id+"/seg/1"), 100)

	// Damage a chunk of segment 1: the index is computed again (the file
	// changed) and shows the gap with its reason; segment 2 stays readable.
	r, err := compact.Open(path)
	require.NoError(t, err)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var hit compact.ChunkRef
	for _, c := range r.Chunks {
		if c.First == 120 {
			hit = c
		}
	}
	data[hit.Offset+40] ^= 0xff
	require.NoError(t, os.WriteFile(path, data, 0o644))
	later := time.Now().Add(time.Second)
	require.NoError(t, os.Chtimes(path, later, later))
	getJSON(t, ts.URL+"/replays/"+id+"/index.json", &idx)
	require.Len(t, idx.Gaps, 1)
	assert.Equal(t, 120, idx.Gaps[0].From)
	assert.Equal(t, 199, idx.Gaps[0].To)
	assert.Contains(t, idx.Gaps[0].Error, "checksum")
	assert.Len(t, segmentSteps(t, ts.URL+"/replays/"+id+"/seg/1"), 20, "steps 100–119")
	assert.Len(t, segmentSteps(t, ts.URL+"/replays/"+id+"/seg/2"), 30)
	getJSON(t, ts.URL+"/replays/index.json", &list)
	assert.True(t, list[0].Damaged)

	// Every segment at once: each part is its seg/{g}, with its reason.
	packed := segmentBody(t, ts.URL+"/replays/"+id+"/segments")
	whole := packed
	var got []int
	for len(packed) > 0 {
		g := nextUvarint(t, &packed)
		reason := string(nextPart(t, &packed))
		body := nextPart(t, &packed)
		got = append(got, g)
		resp, err := http.DefaultTransport.RoundTrip(mustRequest(t, fmt.Sprintf("%s/replays/%s/seg/%d", ts.URL, id, g)))
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, resp.Header.Get("X-Replay-Error"), reason, "segment %d", g)
		assert.Equal(t, segmentBody(t, fmt.Sprintf("%s/replays/%s/seg/%d", ts.URL, id, g)), body, "segment %d", g)
	}
	assert.Equal(t, idx.Segments, got)

	// To a client that takes zstd, the same answer made of the file's
	// own chunks.
	assert.Equal(t, whole, encodedBody(t, ts.URL+"/replays/"+id+"/segments", "zstd"))
}

// nextUvarint reads an unsigned varint off the front of b.
func nextUvarint(t *testing.T, b *[]byte) int {
	t.Helper()
	v, k := binary.Uvarint(*b)
	require.Positive(t, k, "a number")
	*b = (*b)[k:]
	return int(v)
}

// nextPart reads a length-prefixed part off the front of b.
func nextPart(t *testing.T, b *[]byte) []byte {
	t.Helper()
	n := nextUvarint(t, b)
	require.LessOrEqual(t, n, len(*b), "a part within the answer")
	part := (*b)[:n]
	*b = (*b)[n:]
	return part
}
