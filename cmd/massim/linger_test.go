package main

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// getJSONFrom decodes the JSON document at url.
func getJSONFrom(t *testing.T, url string, v any) {
	t.Helper()
	code, body := httpGet(url, "")
	require.Equal(t, http.StatusOK, code, url)
	require.NoError(t, json.Unmarshal([]byte(body), v))
}

// TestServe_LingerKeepsTheMonitorUpAfterTheTournament: with -linger the
// tournament ends, its standings are printed, and the monitor keeps
// serving the last simulation's history and the tournament's end until
// the process is interrupted.
func TestServe_LingerKeepsTheMonitorUpAfterTheTournament(t *testing.T) {
	f := newServeFixture(t, 6, 1)
	srv, srvLog := startServe(t, f.bin, "-conf", f.conf, "-monitor", f.monitorAddr(), "-launch", "0s", "-linger")
	log := awaitLog(t, srvLog, "the monitor stays up at "+f.monitorURL(), 1)
	assert.Contains(t, log, "standings:", "the tournament's end is reported before lingering")

	var idx struct {
		Last     int
		Finished bool
	}
	// The monitor's hub takes the end of the simulation and of the
	// tournament on its own goroutine: wait for it to have done so.
	var st struct{ Phase string }
	require.Eventually(t, func() bool {
		getJSONFrom(t, f.monitorURL()+"/live/history/index.json", &idx)
		getJSONFrom(t, f.monitorURL()+"/live/tournament.json", &st)
		return idx.Finished && st.Phase == "finished"
	}, 60*time.Second, 10*time.Millisecond, "history finished and tournament phase: %+v %+v", idx, st)
	assert.Equal(t, 5, idx.Last, "the last simulation's history, for rewinding")
	require.Nil(t, srv.ProcessState, "still running")

	require.NoError(t, srv.Process.Signal(os.Interrupt))
	assert.Equal(t, 0, exitCode(srv.Wait()), "a played tournament, then Ctrl-C")
}
