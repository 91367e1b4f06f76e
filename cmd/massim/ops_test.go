package main

import (
	"io"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// httpGet fetches url (with a bearer token when given) and returns the
// status code and body; 0 when the request failed.
func httpGet(url, token string) (int, string) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, ""
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

func httpPost(t *testing.T, url, token string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "POST %s", url)
}

// TestServe_OperationsEndpointsDuringAMatch scrapes /metrics of a server
// process in the middle of a match (held by the admin API's pause), on the
// -ops port, and checks the probes and the profiles on the monitor port.
func TestServe_OperationsEndpointsDuringAMatch(t *testing.T) {
	f := newServeFixture(t, 200, 2)
	opsPort, err := freePort()
	require.NoError(t, err)
	t.Setenv("MASSIM_ADMIN_TOKEN", "tok")
	mon := f.monitorURL()
	opsURL := "http://127.0.0.1:" + strconv.Itoa(opsPort)
	srv, _ := startServe(t, f.bin, "-conf", f.conf, "-monitor", f.monitorAddr(), "-ops", "127.0.0.1:"+strconv.Itoa(opsPort))

	require.Eventually(t, func() bool { code, _ := httpGet(opsURL+"/healthz", ""); return code == http.StatusOK },
		60*time.Second, 5*time.Millisecond, "the ops port answers")
	code, _ := httpGet(opsURL+"/readyz", "")
	assert.Equal(t, http.StatusOK, code, "accepting agents before the launch")

	wait := connectTeams(t, f.port, []string{"A", "B"}, 2)
	f.awaitConnected(t, "tok")
	httpPost(t, mon+"/admin/pause", "tok")
	httpPost(t, mon+"/admin/launch", "tok")
	httpPost(t, mon+"/admin/step", "tok")
	httpPost(t, mon+"/admin/step", "tok")
	require.Eventually(t, func() bool {
		st, err := adminStatus(f.monitor, "tok")
		return err == nil && st.Holding && st.Step == 1
	}, 60*time.Second, 5*time.Millisecond, "two steps are played, then the match holds")

	code, text := httpGet(opsURL+"/metrics", "")
	require.Equal(t, http.StatusOK, code)
	for _, line := range []string{
		"massim_steps_total 2",
		`massim_agents_connected{team="A"} 2`,
		`massim_agents_connected{team="B"} 2`,
		`massim_actions_total{result="accepted"} 8`,
		`massim_actions_total{result="timeout"} 0`,
		"massim_step_duration_seconds_count 2",
		"massim_viewers 0",
	} {
		assert.Contains(t, text, line+"\n")
	}
	for _, re := range []string{`massim_bytes_total\{direction="in"\} [1-9]`, `massim_bytes_total\{direction="out"\} [1-9]`,
		`go_goroutines [1-9]`, `process_resident_memory_bytes \S+`, `massim_step_duration_seconds_bucket\{le="\+Inf"\} 2`} {
		assert.Regexp(t, regexp.MustCompile(re), text)
	}
	code, same := httpGet(mon+"/metrics", "")
	assert.Equal(t, http.StatusOK, code, "the monitor port serves them too")
	assert.Contains(t, same, "massim_steps_total 2\n")

	code, _ = httpGet(mon+"/debug/pprof/", "")
	assert.Equal(t, http.StatusUnauthorized, code)
	code, body := httpGet(opsURL+"/debug/pprof/goroutine?debug=1", "tok")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "goroutine profile")

	httpPost(t, mon+"/admin/continue", "tok")
	require.NoError(t, srv.Wait())
	for _, err := range wait() {
		require.NoError(t, err)
	}
}
