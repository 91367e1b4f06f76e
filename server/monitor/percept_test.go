package monitor_test

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/replays/matchtest"
	"github.com/massim-go/massim/replays/rebuild"
)

// TestPercept_ConcurrentViewersGetTheRebuiltPercepts asks the percept
// endpoint for many steps at once, as several viewers stepping would: each
// answer is what a rebuild from the start gives.
func TestPercept_ConcurrentViewersGetTheRebuiltPercepts(t *testing.T) {
	demo, err := config.Demo()
	require.NoError(t, err)
	root := t.TempDir()
	played, err := matchtest.Record(demo, 0, matchtest.Options{Steps: 40, Seed: 4, Players: 2, Sloppy: true}, root, 0)
	require.NoError(t, err)
	rec, err := rebuild.Open(played.Path)
	require.NoError(t, err)
	ts := startLibrary(t, root)
	base := ts.URL + "/replays/" + filepath.Base(played.Path) + "/percept/"
	agents := rec.Meta.Record.Agents
	var wg sync.WaitGroup
	for v := range 4 {
		wg.Go(func() {
			for step := v; step < 40; step += 3 {
				agent := agents[(v*7+step)%len(agents)]
				resp, err := http.Get(base + agent + "/" + strconv.Itoa(step))
				if !assert.NoError(t, err) {
					return
				}
				body, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				assert.NoError(t, err)
				assert.Equal(t, http.StatusOK, resp.StatusCode, string(body))
				want, err := rec.Percept(agent, step)
				assert.NoError(t, err)
				wantJSON, err := json.Marshal(want)
				assert.NoError(t, err)
				assert.JSONEq(t, string(wantJSON), string(body), "%s step %d", agent, step)
			}
		})
	}
	wg.Wait()
	for path, code := range map[string]int{agents[0] + "/40": http.StatusBadRequest, agents[0] + "/x": http.StatusBadRequest, "nobody/3": http.StatusBadRequest} {
		resp, err := http.Get(base + path)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, code, resp.StatusCode, path)
	}
	resp, err := http.Get(ts.URL + "/replays/none.mreplay/percept/" + agents[0] + "/3")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}
