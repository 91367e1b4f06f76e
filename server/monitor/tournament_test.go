package monitor_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/server/monitor"
	"github.com/massim-go/massim/tournament"
)

// waitingStatus is a tournament waiting for agentA2 and all of team B.
func waitingStatus(startsAt *time.Time) tournament.Status {
	return tournament.Status{Phase: tournament.PhaseWaiting, Mode: "round-robin", Match: -1, Matches: 1,
		Simulation: -1, Simulations: 2, Step: -1, Teams: []string{}, Scores: []tournament.TeamResult{},
		Roster: []tournament.TeamRoster{
			{Team: "A", Connected: []string{"agentA1"}, Missing: []string{"agentA2"}},
			{Team: "B", Connected: []string{}, Missing: []string{"agentB1", "agentB2"}},
		},
		Next: &tournament.UpcomingSimulation{Match: 0, Simulation: 0, Teams: []string{"A", "B"}, StartsAt: startsAt}}
}

// tournamentDoc is what the page reads of the tournament feed.
type tournamentDoc struct {
	Phase  string
	Now    time.Time
	Roster []tournament.TeamRoster
	Next   *tournament.UpcomingSimulation
}

func readTournament(t *testing.T, raw map[string]json.RawMessage) tournamentDoc {
	t.Helper()
	data, err := json.Marshal(raw)
	require.NoError(t, err)
	var d tournamentDoc
	require.NoError(t, json.Unmarshal(data, &d))
	return d
}

// TestHub_TournamentFeedCarriesTheRosterAndTheNextSimulation: a viewer of
// /live/tournament gets the newest status on joining and every change
// after it, with the server's clock; /live/tournament.json answers the same.
func TestHub_TournamentFeedCarriesTheRosterAndTheNextSimulation(t *testing.T) {
	hub, ts := startHub(t, monitor.Options{})
	resp, err := http.Get(ts.URL + "/live/tournament.json")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "no status reported yet")

	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	hub.TournamentStatusChanged(waitingStatus(&at))
	c := dialFeed(t, ts, "/live/tournament")
	first := readTournament(t, readDoc(t, c))
	assert.Equal(t, "waiting", first.Phase)
	assert.Equal(t, []string{"agentB1", "agentB2"}, first.Roster[1].Missing)
	require.NotNil(t, first.Next.StartsAt)
	assert.True(t, at.Equal(*first.Next.StartsAt))
	assert.WithinDuration(t, time.Now(), first.Now, time.Hour, "the server's clock")

	next := waitingStatus(nil)
	next.Roster[1] = tournament.TeamRoster{Team: "B", Connected: []string{"agentB1", "agentB2"}, Missing: []string{}}
	hub.TournamentStatusChanged(next)
	// The first status may come twice (on joining, then as a change).
	second := readTournament(t, readDoc(t, c))
	for len(second.Roster[1].Missing) > 0 {
		second = readTournament(t, readDoc(t, c))
	}
	assert.Empty(t, second.Roster[1].Missing)
	assert.Nil(t, second.Next.StartsAt, "starts when the agents are there")

	resp, err = http.Get(ts.URL + "/live/tournament.json")
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var once map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(body, &once))
	assert.Equal(t, []string{"agentB1", "agentB2"}, readTournament(t, once).Roster[1].Connected)
}

// TestHub_TournamentFeedNamesTheLeaguePage: the match of a league names
// the league's page in every document of the feed; other servers do not.
func TestHub_TournamentFeedNamesTheLeaguePage(t *testing.T) {
	hub, ts := startHub(t, monitor.Options{})
	hub.TournamentStatusChanged(waitingStatus(nil))
	var doc map[string]any
	getJSON(t, ts.URL+"/live/tournament.json", &doc)
	assert.NotContains(t, doc, "league")

	hub.SetLeaguePage("http://127.0.0.1:8000/")
	hub.TournamentStatusChanged(waitingStatus(nil))
	c := dialFeed(t, ts, "/live/tournament")
	var league string
	require.NoError(t, json.Unmarshal(readDoc(t, c)["league"], &league))
	assert.Equal(t, "http://127.0.0.1:8000/", league)
	getJSON(t, ts.URL+"/live/tournament.json", &doc)
	assert.Equal(t, "http://127.0.0.1:8000/", doc["league"])
}
