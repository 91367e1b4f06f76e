package loadtest

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/massim-go/massim/internal/loadconfig"
)

// SeasonRun says how to simulate a season (massim bench-ladder -season;
// docs/performance.md, "Seasons"): eight teams of our strategies, two of
// them connecting and disconnecting at random times and one given as a
// command, until Matches matches have finished.
type SeasonRun struct {
	Server  string
	Matches int
	Agents  int // per team
	Size    int
	Steps   int
	Pace    time.Duration // the ladder's -pace: a match lasts at least Steps × Pace
	Seed    uint64        // of the flaky teams' comings and goings
	Log     io.Writer
}

// seasonTeam is a team of the simulated season and its known strength
// (higher is stronger).
type seasonTeam struct {
	name     string
	strategy string // builder or random
	count    int    // agents its client connects (fewer than the team size: weaker)
	command  bool   // started by the ladder
	flaky    bool   // connects and disconnects at random times
	strength int
}

// SeasonReport is what PlaySeason measured.
type SeasonReport struct {
	Matches  int            `json:"matches"`
	Wall     float64        `json:"wallSeconds"`
	Games    map[string]int `json:"games"`      // finished matches per team
	Rated    map[string]int `json:"ratedGames"` // rated ones
	WaitP50S float64        `json:"waitP50Seconds"`
	WaitP99S float64        `json:"waitP99Seconds"`
	// StartP50MS and StartP99MS: from a match's set-up to its first
	// sim-start (its teams were both ready at set-up), for matches of teams
	// that connect by themselves; CommandStartP50MS and CommandStartP99MS
	// for matches with the command team, whose agents the ladder starts
	// first.
	StartP50MS, StartP99MS               float64
	CommandStartP50MS, CommandStartP99MS float64
	Ratings                              []SeasonRating `json:"ratings"` // best first
	// OrderedPairs is the share of pairs of teams of different known
	// strength that the ratings order correctly.
	OrderedPairs float64 `json:"orderedPairs"`
	House        int     `json:"houseMatches"`
}

// SeasonRating is a team's final rating beside its known strength.
type SeasonRating struct {
	Team     string  `json:"team"`
	Strength int     `json:"strength"`
	Rating   float64 `json:"rating"`
	Error    float64 `json:"ratingError"`
}

func seasonTeams(agents int) []seasonTeam {
	return []seasonTeam{
		{name: "B1", strategy: "builder", count: agents, strength: 3},
		{name: "B2", strategy: "builder", count: agents, strength: 3, flaky: true},
		{name: "B3", strategy: "builder", count: agents, strength: 3, command: true},
		{name: "H1", strategy: "builder", count: max(1, agents/2), strength: 2},
		{name: "R1", strategy: "random", count: agents, strength: 1},
		{name: "R2", strategy: "random", count: agents, strength: 1, flaky: true},
		{name: "R3", strategy: "random", count: agents, strength: 1},
		{name: "R4", strategy: "random", count: agents, strength: 1},
	}
}

// PlaySeason runs a massim ladder child process and the teams' agents as
// massim agents child processes (the command team and the house team
// through the ladder, unconfined: our own agents, and the binary may lie
// in /tmp, which a sandbox replaces)
// until run.Matches matches have finished, drains it and reads the season
// folder.
func PlaySeason(run SeasonRun) (SeasonReport, error) {
	rep := SeasonReport{Matches: run.Matches, Games: map[string]int{}, Rated: map[string]int{}}
	teams := seasonTeams(run.Agents)
	var entries []string
	for _, t := range teams {
		e := strconv.Quote(t.name) + `:{"prefix":"agent","password":"1"`
		if t.command {
			cmd, _ := json.Marshal([]string{run.Server, "agents", "-host", "{host}", "-port", "{port}", "-team", "{team}", "-count", "{agents}",
				"-password", "{password}", "-strategy", t.strategy, "-log-level", "error"})
			e += `,"command":` + string(cmd)
		}
		entries = append(entries, e+"}")
	}
	lp, err := startLadder(run.Server, run.Log, func(port int) string {
		return fmt.Sprintf(`{
 "server": {"port": %d, "agentTimeout": 4000, "teamQuietTime": 3000, "logLevel": "error", "adminToken": "bench", "teamSandbox": "none"},
 "match": [%s],
 "teams": {%s},
 "ladder": {"seed": 1, "houseTeam": "random", "houseWait": 60000, "rematchAfter": 30000}
}`, port, loadconfig.Match(run.Agents, run.Size, run.Steps), strings.Join(entries, ","))
	}, "-pace", run.Pace.String())
	if err != nil {
		return rep, err
	}
	defer lp.close()
	page, port := lp.page, lp.port
	began := time.Now()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	rng := rand.New(rand.NewPCG(run.Seed, 1))
	for _, t := range teams {
		if t.command {
			continue
		}
		args := []string{"agents", "-port", strconv.Itoa(port), "-team", t.name, "-password", "1",
			"-count", strconv.Itoa(t.count), "-strategy", t.strategy, "-log-level", "error"}
		var times []time.Duration // alternately online and offline, for a flaky team
		if t.flaky {
			for range 200 {
				times = append(times, time.Duration(20+rng.IntN(70))*time.Second, time.Duration(10+rng.IntN(30))*time.Second)
			}
		}
		wg.Go(func() { keepAgents(run.Server, args, times, stop) })
	}
	defer func() {
		close(stop)
		wg.Wait()
	}()
	if err := awaitLadder(page, time.Duration(run.Matches)*5*time.Minute, func(v ladderView) bool { return v.Finished >= run.Matches }); err != nil {
		return rep, fmt.Errorf("bench: %d matches did not finish: %w", run.Matches, err)
	}
	if err := admin(page, "drain"); err != nil {
		return rep, err
	}
	if err := lp.wait(30 * time.Minute); err != nil {
		return rep, err
	}
	rep.Wall = time.Since(began).Seconds()
	return rep, readSeason(filepath.Join(lp.dir, "season"), teams, &rep)
}

// keepAgents runs a team's massim agents process: for good, or (times)
// alternately for an online and an offline time, until stop.
func keepAgents(bin string, args []string, times []time.Duration, stop <-chan struct{}) {
	for i := 0; ; i += 2 {
		cmd := exec.Command(bin, args...)
		ownGroup(cmd)
		if err := cmd.Start(); err != nil {
			return
		}
		done := make(chan struct{})
		go func() {
			_ = cmd.Wait()
			close(done)
		}()
		var online <-chan time.Time
		if i < len(times) {
			online = time.After(times[i])
		}
		select {
		case <-stop:
			killGroup(cmd)
			<-done
			return
		case <-online:
			killGroup(cmd)
			<-done
		case <-done:
		}
		if i+1 < len(times) {
			select {
			case <-stop:
				return
			case <-time.After(times[i+1]):
			}
		}
	}
}

// readSeason reads the finished season folder into the report.
func readSeason(folder string, teams []seasonTeam, rep *SeasonReport) error {
	var waits, starts, commandStarts []time.Duration
	command := map[string]bool{}
	for _, t := range teams {
		command[t.name] = t.command
	}
	finished := 0
	entries, err := os.ReadDir(filepath.Join(folder, "matches"))
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(folder, "matches", e.Name(), "match.json"))
		if err != nil {
			continue
		}
		var rec struct {
			Teams    []string  `json:"teams"`
			Kind     string    `json:"kind"`
			State    string    `json:"state"`
			Started  time.Time `json:"started"`
			SimStart time.Time `json:"simStart"`
			Waits    []int64   `json:"waits"`
		}
		if err := json.Unmarshal(data, &rec); err != nil {
			return fmt.Errorf("bench: %s: %w", e.Name(), err)
		}
		if rec.State != "finished" {
			continue
		}
		finished++
		if rec.Kind == "house" {
			rep.House++
		}
		for i, t := range rec.Teams {
			if t == "house" {
				continue
			}
			rep.Games[t]++
			if rec.Kind == "ranked" {
				rep.Rated[t]++
			}
			if i < len(rec.Waits) {
				waits = append(waits, time.Duration(rec.Waits[i])*time.Millisecond+rec.SimStart.Sub(rec.Started))
			}
		}
		if !rec.SimStart.IsZero() {
			if slices.ContainsFunc(rec.Teams, func(t string) bool { return command[t] }) {
				commandStarts = append(commandStarts, rec.SimStart.Sub(rec.Started))
			} else {
				starts = append(starts, rec.SimStart.Sub(rec.Started))
			}
		}
	}
	rep.Matches = finished // the drain let the running ones finish too
	p50, p99 := percentiles(waits)
	rep.WaitP50S, rep.WaitP99S = p50/1000, p99/1000
	rep.StartP50MS, rep.StartP99MS = percentiles(starts)
	rep.CommandStartP50MS, rep.CommandStartP99MS = percentiles(commandStarts)
	data, err := os.ReadFile(filepath.Join(folder, "standings.json"))
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	var st struct {
		Standings []struct {
			Team        string  `json:"team"`
			Rating      float64 `json:"rating"`
			RatingError float64 `json:"ratingError"`
		} `json:"standings"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	strength := map[string]int{}
	for _, t := range teams {
		strength[t.name] = t.strength
	}
	for _, r := range st.Standings {
		if rep.Rated[r.Team] == 0 {
			continue // no rated match: no rating
		}
		rep.Ratings = append(rep.Ratings, SeasonRating{Team: r.Team, Strength: strength[r.Team], Rating: r.Rating, Error: r.RatingError})
	}
	sort.SliceStable(rep.Ratings, func(i, j int) bool { return rep.Ratings[i].Rating > rep.Ratings[j].Rating })
	right, all := 0, 0
	for i, a := range rep.Ratings {
		for _, b := range rep.Ratings[i+1:] {
			if a.Strength == b.Strength {
				continue
			}
			all++
			if a.Strength > b.Strength {
				right++
			}
		}
	}
	if all > 0 {
		rep.OrderedPairs = float64(right) / float64(all)
	}
	return nil
}

// PrintSeasonReport prints a report for people.
func PrintSeasonReport(w io.Writer, r SeasonReport) {
	names := make([]string, 0, len(r.Games))
	for t := range r.Games {
		names = append(names, t)
	}
	slices.Sort(names)
	var counts []float64
	fmt.Fprintf(w, "%d matches in %.0f s (%d against the house team)\n  games per team (rated):", r.Matches, r.Wall, r.House)
	for _, t := range names {
		fmt.Fprintf(w, " %s %d (%d)", t, r.Games[t], r.Rated[t])
		counts = append(counts, float64(r.Games[t]))
	}
	mean, sd := meanSD(counts)
	fmt.Fprintf(w, "\n  games: mean %.1f, standard deviation %.1f, min %.0f, max %.0f\n", mean, sd, slices.Min(counts), slices.Max(counts))
	fmt.Fprintf(w, "  waiting of a ready team until its sim-start: p50 %.1f s, p99 %.1f s\n", r.WaitP50S, r.WaitP99S)
	fmt.Fprintf(w, "  set-up to sim-start: p50 %.0f ms, p99 %.0f ms; with the command team (its agents started first): p50 %.0f ms, p99 %.0f ms\n",
		r.StartP50MS, r.StartP99MS, r.CommandStartP50MS, r.CommandStartP99MS)
	fmt.Fprintf(w, "  ratings (known strength: 3 builder, 2 half a builder team, 1 random):\n")
	for _, s := range r.Ratings {
		fmt.Fprintf(w, "    %-3s strength %d  %6.0f ± %.0f\n", s.Team, s.Strength, s.Rating, s.Error)
	}
	fmt.Fprintf(w, "  pairs of different strength in the right order: %.0f %%\n", 100*r.OrderedPairs)
}

func meanSD(xs []float64) (float64, float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	var sum, sq float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / float64(len(xs))
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sq / float64(len(xs)))
}
