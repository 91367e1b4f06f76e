package monitor_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/server/admin"
	"github.com/massim-go/massim/server/monitor"
)

// TestBrowser_OrganizerPausesStepsAndContinuesFromThePage drives the admin
// API through the page's controls: the token is entered once, pause stops
// the match, step advances exactly one step, continue resumes it.
func TestBrowser_OrganizerPausesStepsAndContinuesFromThePage(t *testing.T) {
	page := openBrowser(t)
	hub := monitor.NewHub(monitor.Options{})
	obs := hub.Observer()
	srv := liveMatch(t, 5000, 30*time.Millisecond, obs)
	mux := http.NewServeMux()
	monitor.Mount(mux, monitor.Routes{Hub: hub})
	admin.Mount(mux, admin.New(srv.Control(), "s3cret", zerolog.Nop()))
	ts := httptest.NewServer(mux)
	t.Cleanup(func() {
		_ = obs.Close()
		hub.Close()
		ts.Close()
	})
	waitUntil(t, "the match runs", func() bool { return historyLast(ts.URL) >= 3 })

	page.Navigate(ts.URL + "/")
	page.Wait(`window.massim && massim.mode === "live" && !document.getElementById("btn-admin").hidden`)
	// The controls stay closed until the organizer opens them.
	assertDisplayed(t, page, map[string]bool{"#btn-admin": true, "#admin": false})
	page.Eval(`document.getElementById("btn-admin").click()`, nil)
	page.Wait(`document.getElementById("admin-state").textContent.includes("token")`)
	assertDisplayed(t, page, map[string]bool{"#admin": true, "#admin-token": true})

	page.Eval(`(() => { const i = document.getElementById("admin-token"); i.value = "s3cret"; i.form.requestSubmit(); })()`, nil)
	page.Wait(`massim.admin !== null && massim.admin.phase !== undefined && !massim.admin.paused`)

	page.Eval(`document.getElementById("admin-pause").click()`, nil)
	page.Wait(`massim.admin.paused && !document.getElementById("admin-step").disabled`)
	assert.True(t, srv.Control().Status().Paused)
	// A step in progress when pausing still finishes; then the loop parks
	// and stays parked: no step can start until the page grants one.
	waitUntil(t, "the step loop holds", func() bool { return srv.Control().Status().Holding })
	paused := srv.Control().Status().Step

	page.Eval(`document.getElementById("admin-step").click()`, nil)
	waitUntil(t, "one more step, then holding again", func() bool {
		st := srv.Control().Status()
		return st.Step > paused && st.Holding
	})
	assert.Equal(t, paused+1, srv.Control().Status().Step, "exactly one step")

	page.Eval(`document.getElementById("admin-continue").click()`, nil)
	waitUntil(t, "the match runs again", func() bool { return srv.Control().Status().Step > paused+3 })
	page.Screenshot("monitor-admin.png")
	assert.Empty(t, page.Errors(), "JavaScript errors")
}
