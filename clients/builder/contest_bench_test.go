package builder

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/clients/random"
	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/scenario/normaudit"
	"github.com/massim-go/massim/sim"
)

var (
	contestSim   = flag.Int("contest.sim", 1, "BenchmarkContest2022: the simulation (1-3)")
	contestSeeds = flag.String("contest.seeds", "1", "BenchmarkContest2022: seeds, comma-separated")
	contestSteps = flag.Int("contest.steps", 0, "BenchmarkContest2022: steps to play (0: all)")
	contestLog   = flag.String("contest.log", "", "BenchmarkContest2022: write the builder's debug log (team A) to this file")
	contestTrace = flag.String("contest.trace", "", "BenchmarkContest2022: builder agents (team A) to trace on stdout; \"violations\" traces team A's norm violations")
	contestFile  = flag.String("contest.behaviour", "", "BenchmarkContest2022: a behaviour file for the builder (team A) instead of the shipped one")
	contestVs    = flag.String("contest.vs", "random", "BenchmarkContest2022: the opponent, random or builder")
	// contestTeamSeed plays the same worlds with other random choices of
	// the builder: the spread between two team seeds is how much a count
	// moves when nothing but chance changes.
	contestTeamSeed = flag.Int64("contest.teamseed", 0, "BenchmarkContest2022: added to the seed of the builder's (team A's) random choices")
)

// contestParams is a simulation of the 2022 contest config with a seed.
func contestParams(t testing.TB, index int, seed int64) scenario.Params {
	t.Helper()
	cfg, err := config.Load(filepath.Join("..", "..", "config", "examples", "contest2022", "contest2022.json"))
	require.NoError(t, err)
	p, err := sim.WorldParams(cfg, cfg.Match[index-1], time.Now())
	require.NoError(t, err)
	p.Seed = seed
	return p
}

// BenchmarkContest2022 plays simulations of the 2022 contest in-process,
// the builder (team A) against random agents or another builder (team B),
// and reports the mean score and what the builder's agents did:
//
//	go test ./clients/builder -run '^$' -bench Contest2022 -benchtime 1x -args -contest.sim 2 -contest.seeds 1,2
//
// Two builds play the same games until the first step where they act
// differently, and different games after: a count summed over seeds then
// moves by chance as well as by the change. Playing the unchanged build
// with -contest.teamseed 1000 (other random choices of the builder in the
// same worlds) shows how far.
func BenchmarkContest2022(b *testing.B) {
	var seeds []int64
	for _, s := range strings.Split(*contestSeeds, ",") {
		var v int64
		_, err := fmt.Sscan(s, &v)
		require.NoError(b, err)
		seeds = append(seeds, v)
	}
	total, games := int64(0), 0
	traceViolations := slices.Contains(strings.Split(*contestTrace, ","), "violations")
	for b.Loop() {
		for _, seed := range seeds {
			p := contestParams(b, *contestSim, seed)
			if *contestSteps > 0 {
				p.Steps = *contestSteps
			}
			cfg := Config{Seed: seed + *contestTeamSeed, File: *contestFile}
			if *contestTrace != "" {
				cfg.Trace, cfg.TraceOut = strings.Split(*contestTrace, ","), os.Stdout
			}
			if *contestLog != "" {
				f, err := os.Create(*contestLog)
				require.NoError(b, err)
				defer f.Close()
				cfg.Logger = zerolog.New(f).Level(zerolog.DebugLevel)
			}
			tm, err := New(cfg)
			require.NoError(b, err)
			opp := random.ForTeam(seed)
			if *contestVs == "builder" {
				other, err := New(Config{Seed: seed + 100})
				require.NoError(b, err)
				opp = other.Behaviour
			}
			s := newSimulation(b, p, teamsAB, []newBehaviour{tm.Behaviour, opp})
			violations := map[string]int{}
			norms := map[string]string{}
			defaults := map[string]int{} // default-role violations by what the agent's group knew
			torusAt := [2]int{-1, -1}    // the step team A learnt the grid's width and height
			var opening [4]int           // team A's agents in the default role in steps 20, 40, 60, 80
			s.onPercept = func(name string, pc *protocol.StepPercept) {
				for _, n := range pc.Norms {
					if _, ok := norms[n.Name]; !ok && len(n.Requirements) > 0 {
						r := n.Requirements[0]
						norms[n.Name] = fmt.Sprintf("%s %s<=%d %d-%d p%d", r.Type, r.Name, r.Quantity, n.Start, n.Until, n.Punishment)
					}
				}
				if name == "agentA1" {
					size := torusSize(tm)
					for axis := range 2 {
						if size[axis] > 0 && torusAt[axis] < 0 {
							torusAt[axis] = s.w.Step()
						}
					}
				}
				if strings.HasPrefix(name, "agentA") {
					if i := s.w.Step()/20 - 1; s.w.Step()%20 == 0 && i >= 0 && i < len(opening) && pc.Role == "default" {
						opening[i]++
					}
					for _, v := range pc.Violations {
						violations[v]++
						if strings.HasPrefix(norms[v], "role default") {
							if groupKnowsRoleZone(tm, name) {
								defaults["group knew a zone"]++
							} else {
								defaults["group knew none"]++
							}
						}
						if traceViolations {
							fmt.Printf("step %d %s violates %s (%s) attached %d role %s group knows a zone %v\n", s.w.Step(), name, v, norms[v], len(pc.Attached), pc.Role, groupKnowsRoleZone(tm, name))
						}
					}
				}
			}
			audit := newAudit(p, s)
			began := time.Now()
			s.run(b)
			total += s.score("A")
			games++
			b.Logf("sim %d seed %d: A %d, B %d in %v; violations %v", *contestSim, seed, s.score("A"), s.score("B"), time.Since(began).Round(time.Millisecond), violations)
			b.Logf("  A actions: %s", s.summary("agentA"))
			b.Logf("  A projects: %v", tm.squad.plan.stats)
			b.Logf("  norms: %v", norms)
			b.Logf("  A violations avoidable/unavoidable: %v", audit.Team("A"))
			b.Logf("  A default-role violations: %v; walks back and forth broken: %d", defaults, walkCycles(tm))
			b.Logf("  A agents in the default role in steps 20, 40, 60, 80: %v", opening)
			b.Logf("  A learnt the grid's size %v in steps %v (-1: never)", torusSize(tm), torusAt)
			for _, ep := range audit.Episodes() {
				if ep.Team == "A" && traceViolations {
					b.Logf("    %+v", ep)
				}
			}
		}
	}
	b.ReportMetric(float64(total)/float64(games), "points/sim")
}

// newAudit watches s's snapshots for avoidable norm violations.
func newAudit(p scenario.Params, s *simulation) *normaudit.Audit {
	speed := map[string]int{}
	for _, r := range p.Roles {
		if len(r.Speed) > 0 {
			speed[r.Name] = r.Speed[0]
		}
	}
	st := s.w.Static("")
	a := normaudit.New(normaudit.Params{Width: st.Width, Height: st.Height, Speed: speed}, s.w.Snapshot())
	s.onStep = func() { a.Observe(s.w.Snapshot()) }
	return a
}

// summary counts the team's actions by name and result.
func (s *simulation) summary(prefix string) string {
	counts := map[string]int{}
	for _, name := range s.names {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		for i, a := range s.actions[name] {
			res := "?"
			if i < len(s.results[name]) {
				res = s.results[name][i]
			}
			counts[a.Name+":"+res]++
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	keys = slices.DeleteFunc(keys, func(string) bool { return false })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, counts[k])
	}
	return strings.Join(parts, " ")
}

// groupKnowsRoleZone reports whether the map of the agent's group holds a
// role-zone cell.
func groupKnowsRoleZone(tm *Team, name string) bool {
	tm.squad.mu.Lock()
	defer tm.squad.mu.Unlock()
	m := tm.squad.members[name]
	return m != nil && len(m.group.world.RoleCells()) > 0
}

// walkCycles sums the back-and-forth walks the team's agents broke.
func walkCycles(tm *Team) int {
	tm.squad.mu.Lock()
	defer tm.squad.mu.Unlock()
	n := 0
	for _, m := range tm.squad.members {
		n += m.brain.walk.cycles
	}
	return n
}

// torusSize is the grid size team A learnt so far (0: not yet).
func torusSize(tm *Team) [2]int {
	tm.squad.mu.Lock()
	defer tm.squad.mu.Unlock()
	return tm.squad.torus.size
}
