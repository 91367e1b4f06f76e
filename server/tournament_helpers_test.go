package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
	"github.com/massim-go/massim/tournament"
)

// newTournamentServer makes a server on a loopback port for cfg.
func newTournamentServer(t *testing.T, cfg *config.Config, opts Options) *Server {
	t.Helper()
	opts.Listen = "127.0.0.1:0"
	srv := New(cfg, zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel), opts)
	require.NoError(t, srv.Listen())
	return srv
}

// runTournament runs srv to its end (bounded, so a hanging test fails).
func runTournament(t *testing.T, srv *Server) (Summary, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return srv.Run(ctx)
}

// sampleTeams connects the random sample team of every configured team
// (the largest team size each) and returns a wait for their ends.
func sampleTeams(t *testing.T, srv *Server, cfg *config.Config) (wait func() []error) {
	t.Helper()
	addr := srv.Addr().(*net.TCPAddr)
	ctx, cancel := context.WithCancel(context.Background())
	errs := make([]error, len(cfg.Teams))
	var wg sync.WaitGroup
	for i, tm := range cfg.Teams {
		wg.Go(func() {
			errs[i] = team.Run(ctx, team.Config{
				Host: "127.0.0.1", Port: addr.Port, Team: tm.Name, Prefix: tm.Prefix, Password: tm.Password,
				Count: cfg.MaxTeamSize(), MaxBackoff: 100 * time.Millisecond,
			}, random.ForTeam(int64(10*(i+1))))
		})
	}
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
	return func() []error {
		wg.Wait()
		return errs
	}
}

// stopAt is an sim.Observer that requests a stop when simulation number n
// (counted from 1 over the whole run) starts, so that simulation is the last.
type stopAt struct {
	srv     *Server
	n, seen int
}

func (o *stopAt) SimulationStarted(sim.Info, scenario.Static, *scenario.Snapshot) {
	if o.seen++; o.seen == o.n {
		_ = o.srv.Control().Stop()
	}
}
func (o *stopAt) StepDone(sim.Info, *scenario.Snapshot) {}
func (o *stopAt) SimulationEnded(sim.Info, sim.Result)  {}

// statusProbe is an sim.Observer that asks the server for a status-response
// over TCP at the start of every simulation and after its first step, and
// keeps what it saw next to what was true.
type statusProbe struct {
	addr string
	mu   sync.Mutex
	seen []statusSeen
}

type statusSeen struct {
	want, got protocol.StatusResponse
	err       error
}

func (p *statusProbe) check(info sim.Info, sizes []int) {
	want := protocol.StatusResponse{Teams: info.Teams, TeamSizes: sizes, CurrentSimulation: info.Index}
	got, err := queryStatus(p.addr)
	got.Time = 0
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seen = append(p.seen, statusSeen{want: want, got: got, err: err})
}

func queryStatus(addr string) (protocol.StatusResponse, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return protocol.StatusResponse{}, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	body, err := protocol.Marshal(protocol.StatusRequest{})
	if err != nil {
		return protocol.StatusResponse{}, err
	}
	if err := protocol.WriteFrame(conn, body); err != nil {
		return protocol.StatusResponse{}, err
	}
	frame, err := protocol.NewFrameReader(conn, 0).Next()
	if err != nil {
		return protocol.StatusResponse{}, err
	}
	msg, err := protocol.Decode(frame)
	if err != nil {
		return protocol.StatusResponse{}, err
	}
	st, _ := msg.(protocol.StatusResponse)
	return st, nil
}

// readResultFiles reads every result file of a folder: simulation name →
// team → score, and the simulation names per file, files in name order.
func readResultFiles(t *testing.T, dir string) (scores map[string]map[string]int64, files [][]string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "result_*.json"))
	require.NoError(t, err)
	sort.Strings(paths)
	scores = map[string]map[string]int64{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		var content map[string]map[string]struct{ Score int64 }
		require.NoError(t, json.Unmarshal(data, &content))
		var names []string
		for name, teams := range content {
			names = append(names, name)
			scores[name] = map[string]int64{}
			for tm, s := range teams {
				scores[name][tm] = s.Score
			}
		}
		sort.Strings(names)
		files = append(files, names)
	}
	return scores, files
}

func readManifest(t *testing.T, dir string) *tournament.Manifest {
	t.Helper()
	m, err := tournament.ReadManifest(dir)
	require.NoError(t, err)
	return m
}

func readStandings(t *testing.T, dir string) tournament.StandingsFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, tournament.StandingsName))
	require.NoError(t, err)
	var f tournament.StandingsFile
	require.NoError(t, json.Unmarshal(data, &f))
	return f
}

// positions lists the (match, simulation) of recorded simulations as "m.i".
func positions(m *tournament.Manifest) []string {
	var out []string
	for _, s := range m.Simulations {
		out = append(out, itoa(int64(s.Match))+"."+itoa(int64(s.Index)))
	}
	return out
}

// tournamentJSON is a small config: one team per name (passwords "1"), the
// given server block members, one simulation per team size (20×20, no
// terrain, fixed seeds), and extra top-level members.
func tournamentJSON(server string, teams []string, steps int, sizes []int, extra string) string {
	var sims []string
	for i, n := range sizes {
		sims = append(sims, testSimJSON(steps, 100+i, n))
	}
	var ts []string
	for _, name := range teams {
		ts = append(ts, fmt.Sprintf(`%q: {"prefix": "agent", "password": "1"}`, name))
	}
	if extra != "" {
		extra = "," + extra
	}
	return fmt.Sprintf(`{"server": {%s}, "match": [%s], "teams": {%s}%s}`,
		server, strings.Join(sims, ","), strings.Join(ts, ","), extra)
}

func parseTournament(t *testing.T, server string, teams []string, steps int, sizes []int, extra string) *config.Config {
	t.Helper()
	cfg, err := config.Parse("test.json", []byte(tournamentJSON(server, teams, steps, sizes, extra)))
	require.NoError(t, err)
	return cfg
}
