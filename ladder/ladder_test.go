package ladder

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/ladder/season"
)

// inProcessConfig is a season of small matches; teams name → password,
// written in the order of their names (the registry keeps the config's
// order, which a map's would make random).
func inProcessConfig(teams map[string]string) string {
	var entries []string
	for _, name := range slices.Sorted(maps.Keys(teams)) {
		entries = append(entries, fmt.Sprintf(`%q: {"prefix": "agent", "password": %q}`, name, teams[name]))
	}
	return fmt.Sprintf(`{
 "server": {"agentTimeout": 1000, "teamQuietTime": 500, "logLevel": "error"},
 "match": [{"steps": 15, "randomSeed": 3, "randomFail": 0, "entities": {"standard": 2}, "clusterBounds": [1, 2],
   "roles": [{"name": "default", "vision": 5, "actions": ["skip", "move"], "speed": [1], "clear": {"chance": 0.5, "maxDistance": 1}}],
   "clearEnergyCost": 2, "deactivatedDuration": 10, "maxEnergy": 100, "refreshEnergy": 50, "stepRecharge": 1,
   "clearDamage": [32, 16], "attachLimit": 10,
   "grid": {"width": 16, "height": 16, "instructions": [], "goals": {"number": 1, "size": [1, 1], "moveProbability": 0},
            "roleZones": {"number": 1, "size": [1, 1]}},
   "blockTypes": [1, 1], "dispensers": [1, 1],
   "tasks": {"size": [1, 1], "concurrent": 1, "iterations": [1, 1], "maxDuration": [50, 50]},
   "events": {"chance": 0, "radius": [1, 1], "warning": 1, "create": [0, 0], "perimeter": 1},
   "regulation": {"simultaneous": 0, "chance": 0, "subjects": []}}],
 "teams": {%s},
 "ladder": {"houseTeam": "off", "rematchAfter": 0, "seed": 5}
}`, strings.Join(entries, ", "))
}

// TestLadder_InProcess plays a season in this process (under the race
// detector): matches, a scrimmage through the HTTP endpoint, the pages,
// reloads, and the drain.
func TestLadder_InProcess(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "season.json")
	require.NoError(t, os.WriteFile(conf, []byte(inProcessConfig(map[string]string{"A": "a", "B": "b"})), 0o644))
	cfg, err := LoadConfig(conf)
	require.NoError(t, err)
	l, err := Open(cfg, Options{Dir: filepath.Join(dir, "season"), ConfigPath: conf, Listen: "127.0.0.1:0", Live: true,
		Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
	require.NoError(t, err)
	web := httptest.NewServer(l.Handler("tok"))
	defer web.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ran := make(chan error, 1)
	go func() { ran <- l.Run(ctx) }()

	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	for _, team := range []string{"A", "B"} {
		for i := 1; i <= 2; i++ {
			cfg := agent.Config{Addr: l.Addr().String(), User: "agent" + team + strconv.Itoa(i), Password: strings.ToLower(team)}
			wg.Go(func() { _ = agent.Run(ctx, cfg, random.New(int64(i))) })
		}
	}
	await := func(what string, cond func(View) bool) View {
		t.Helper()
		deadline := time.Now().Add(3 * time.Minute)
		for {
			v := l.View()
			if cond(v) {
				return v
			}
			require.True(t, time.Now().Before(deadline), "no %s", what)
			time.Sleep(20 * time.Millisecond)
		}
	}
	await("a finished match", func(v View) bool { return v.Finished >= 1 })

	get := func(path string) (int, string) {
		resp, err := http.Get(web.URL + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for path, want := range map[string]int{"/": 200, "/ladder.json": 200, "/teams/A": 200, "/teams/A.json": 200,
		"/matches/0001/": 200, "/matches/0001/info.json": 200, "/scrimmages": 200, "/teams/Z": 404, "/matches/9999/": 404,
		"/matches/1/": 404, "/admin/status": 401} {
		code, body := get(path)
		assert.Equal(t, want, code, "%s: %.200s", path, body)
	}

	req, _ := http.NewRequest(http.MethodPost, web.URL+"/scrimmages", strings.NewReader(`{"opponent": "A", "ranked": false}`))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth("B", "b")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var q season.Request
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&q))
	resp.Body.Close()
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	v := await("the scrimmage", func(v View) bool {
		for _, m := range v.Recent {
			if m.Request == q.ID && m.State == season.StateFinished {
				return true
			}
		}
		return false
	})
	assert.Equal(t, season.KindUnranked, v.Recent[0].Kind)

	require.NoError(t, os.WriteFile(conf, []byte(inProcessConfig(map[string]string{"A": "a", "B": "b", "C": "c"})), 0o644))
	rep, err := l.Reload()
	require.NoError(t, err)
	assert.Equal(t, []string{"C"}, rep.Added)
	require.NoError(t, os.WriteFile(conf, []byte(inProcessConfig(map[string]string{"A": "a", "B": "b"})[:40]), 0o644))
	_, err = l.Reload()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "reload refused")
	require.NoError(t, os.WriteFile(conf, []byte(inProcessConfig(map[string]string{"A": "a", "B": "bb"})), 0o644))
	rep, err = l.Reload()
	require.NoError(t, err)
	assert.Equal(t, []string{"C"}, rep.Retired)
	assert.Equal(t, []string{"B"}, rep.Changed, "B's password")
	v = l.View()
	assert.Empty(t, teamState(v, "C"), "retired: no longer among the teams")
	for _, r := range v.Standings {
		assert.Equal(t, r.Team == "C", r.Retired, "%s retired", r.Team)
	}

	require.NoError(t, l.Drain())
	select {
	case err := <-ran:
		require.NoError(t, err)
	case <-time.After(3 * time.Minute):
		t.Fatal("the drained ladder did not end")
	}
	h, err := season.Load(filepath.Join(dir, "season"))
	require.NoError(t, err)
	for _, m := range h.Matches {
		assert.Equal(t, season.StateFinished, m.State, "match %d", m.Number)
	}
	reg, err := season.ReadRegistry(filepath.Join(dir, "season"))
	require.NoError(t, err)
	assert.Equal(t, []string{"A", "B", "C"}, reg.Names())
	assert.False(t, reg.Active("C"))
}

func teamState(v View, team string) string {
	for _, ts := range v.Teams {
		if ts.Team == team {
			return ts.State
		}
	}
	return ""
}

func TestCheckTeams(t *testing.T) {
	tests := []struct {
		name  string
		teams []config.Team
		house string
		err   string
	}{
		{"Fine", []config.Team{{Name: "A", Prefix: "agent"}}, config.HouseBuilder, ""},
		{"HouseName", []config.Team{{Name: "house", Prefix: "agent"}}, config.HouseRandom, "season.json: teams.house: the name of the house team"},
		{"HouseNameWithoutHouse", []config.Team{{Name: "house", Prefix: "agent"}}, config.HouseOff, ""},
		{"HouseAccounts", []config.Team{{Name: "3-x", Prefix: "ladder-h"}}, config.HouseBuilder, "season.json: teams.3-x: accounts ladder-h3-x… are the house team's"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := &config.Config{Path: "season.json", Teams: tc.teams, Ladder: config.DefaultLadder()}
			cfg.Ladder.HouseTeam = tc.house
			err := checkTeams(cfg)
			if tc.err == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}
