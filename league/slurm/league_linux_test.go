//go:build linux

package slurm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/massim-go/massim/internal/massimbin"
	"github.com/massim-go/massim/league/slurm/slurmtest"
	"github.com/stretchr/testify/require"
)

// TestLeagueOnSlurm plays a league of four teams (six matches, team
// commands of our sample agents) through a real one-node Slurm with
// "massim league -slurm -submit", cancels one array task while its match
// plays and submits it again, has Slurm requeue another, and checks that
// both resumed their matches: every match recorded once, the merged
// standings the sum of the matches'.
func TestLeagueOnSlurm(t *testing.T) {
	massim := massimbin.Path(t)
	c := slurmtest.Start(t)
	root := filepath.Join(c.Dir, "shared")
	dir := filepath.Join(root, "league")
	conf := writeLeagueConfig(t, filepath.Join(root, "conf", "league.json"), massim, 4, 3000)

	began := time.Now()
	out := run(t, c.Command(massim, "league", "-conf", conf, "-dir", dir, "-slurm", "-submit", "-slurm-opt", "--time=00:10:00"))
	ids := regexp.MustCompile(`job array (\d+) \(6 tasks\), merge job (\d+)`).FindStringSubmatch(out)
	require.NotNil(t, ids, "massim league -submit printed: %s", out)
	array, merge := ids[1], ids[2]

	// Cancel task 1 while its match plays: between its two simulations (the
	// config waits 3 s there) or in the second one.
	folder := filepath.Join(dir, planMatchDir(t, dir, 1))
	first := waitPlaying(t, c, folder, "match 1")
	c.Run("scancel", array+"_1")
	c.WaitFor("task 1 to end", time.Minute, func() bool { return !queued(c, array+"_1") })
	c.WaitFor("every process of task 1 to stop", time.Minute, func() bool {
		return len(c.ProcessesWith("SLURM_ARRAY_JOB_ID="+array, "SLURM_ARRAY_TASK_ID=1")) == 0
	})
	cut, _ := readManifest(folder)
	require.NotEqual(t, "finished", cut.State)
	require.Len(t, cut.Simulations, 1, "the cancelled match keeps its first simulation")

	// Slurm requeues task 2 while its match plays (as after a node failure
	// or a preemption): the same task runs again and resumes its match.
	waitPlaying(t, c, filepath.Join(dir, planMatchDir(t, dir, 2)), "match 2")
	c.Run("scontrol", "requeue", array+"_2")
	// A requeued job waits two minutes before it may start again; the test
	// lets it start as soon as it is pending.
	c.WaitFor("task 2 to be pending again", time.Minute, func() bool {
		out, err := c.Command("squeue", "--noheader", "--format=%t", "--jobs="+array+"_2").Output()
		return err == nil && strings.TrimSpace(string(out)) == "PD"
	})
	c.Run("scontrol", "update", "JobId="+array+"_2", "StartTime=now")

	c.WaitFor("the league's jobs to end", 5*time.Minute, func() bool { return !queued(c, array) && !queued(c, merge) })
	t.Logf("league of 6 matches through Slurm (one task cancelled, one requeued): %v from submission to merged standings", time.Since(began).Round(100*time.Millisecond))

	// The cancelled task again, and the merge after it.
	again := strings.TrimSpace(c.Run("sbatch", "--parsable", "--array=1", Path(dir, MatchesScript)))
	remerge := strings.TrimSpace(c.Run("sbatch", "--parsable", "--dependency=afterany:"+again, Path(dir, MergeScript)))
	c.WaitFor("the resubmitted task and merge to end", 3*time.Minute, func() bool { return !queued(c, again) && !queued(c, remerge) })

	var sum map[string]standing
	for i := range 6 {
		folder := filepath.Join(dir, planMatchDir(t, dir, i))
		m, ok := readManifest(folder)
		require.True(t, ok, "match %d has no manifest", i)
		require.Equal(t, "finished", m.State, "match %d", i)
		require.Len(t, m.Simulations, 2, "match %d: each simulation recorded once", i)
		for j, s := range m.Simulations {
			require.Equal(t, j, s.Index, "match %d", i)
		}
		results, err := filepath.Glob(filepath.Join(folder, "result_*.json"))
		require.NoError(t, err)
		require.Len(t, results, 1, "match %d: one result file", i)
		teamLogs, err := filepath.Glob(filepath.Join(folder, "teams", "*.log"))
		require.NoError(t, err)
		require.Len(t, teamLogs, 2, "match %d: the logs of both team commands", i)
		sum = addStandings(t, sum, filepath.Join(folder, "standings.json"))
	}
	resumed, _ := readManifest(folder)
	require.Equal(t, first.Simulations[0].Name, resumed.Simulations[0].Name, "the resubmitted task played its first simulation again")
	log, err := os.ReadFile(Path(dir, "match-1.out"))
	require.NoError(t, err)
	require.Contains(t, string(log), "fromSimulation=1", "the resubmitted task did not resume its match")

	log, err = os.ReadFile(Path(dir, "match-2.out"))
	require.NoError(t, err)
	require.Contains(t, string(log), "fromSimulation=1", "the requeued task did not resume its match")

	merged := addStandings(t, nil, filepath.Join(dir, "standings.json"))
	require.Equal(t, sum, merged, "the league's standings are not the sum of its matches'")
	require.Len(t, merged, 4)
	for team, s := range merged {
		require.Equal(t, 6, s.Played, "team %s: three matches of two simulations", team)
	}
}

// waitPlaying waits until the match in folder has recorded its first
// simulation and checks that it has not ended yet.
func waitPlaying(t *testing.T, c *slurmtest.Cluster, folder, match string) manifest {
	t.Helper()
	var m manifest
	c.WaitFor(match+" to record its first simulation", 2*time.Minute, func() bool {
		var ok bool
		m, ok = readManifest(folder)
		return ok && len(m.Simulations) > 0
	})
	require.NotEqual(t, "finished", m.State, "%s ended before the test could interrupt it", match)
	return m
}

// manifest is what the test reads of a match folder's manifest.json.
type manifest struct {
	State       string `json:"state"`
	Simulations []struct {
		Index int    `json:"index"`
		Name  string `json:"name"`
	} `json:"simulations"`
}

func readManifest(folder string) (manifest, bool) {
	var m manifest
	data, err := os.ReadFile(filepath.Join(folder, "manifest.json"))
	if err != nil || json.Unmarshal(data, &m) != nil {
		return m, false
	}
	return m, true
}

// standing is a team's line of a standings.json, without rank and rating.
type standing struct {
	Played, Wins, Draws, Losses, Points int
	Score                               int64
}

// addStandings adds the lines of a standings.json to sum, by team.
func addStandings(t *testing.T, sum map[string]standing, path string) map[string]standing {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var file struct {
		Standings []struct {
			Team string `json:"team"`
			standing
		} `json:"standings"`
	}
	require.NoError(t, json.Unmarshal(data, &file), path)
	if sum == nil {
		sum = map[string]standing{}
	}
	for _, s := range file.Standings {
		acc := sum[s.Team]
		acc.Played += s.Played
		acc.Wins += s.Wins
		acc.Draws += s.Draws
		acc.Losses += s.Losses
		acc.Points += s.Points
		acc.Score += s.Score
		sum[s.Team] = acc
	}
	return sum
}

// planMatchDir is the folder of match i in the league plan, relative to dir.
func planMatchDir(t *testing.T, dir string, i int) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "league.json"))
	require.NoError(t, err)
	var plan struct {
		Matches []struct {
			Index int    `json:"index"`
			Dir   string `json:"dir"`
		} `json:"matches"`
	}
	require.NoError(t, json.Unmarshal(data, &plan))
	require.Greater(t, len(plan.Matches), i)
	require.Equal(t, i, plan.Matches[i].Index)
	return filepath.FromSlash(plan.Matches[i].Dir)
}

// queued reports whether squeue still lists the job (or array task).
func queued(c *slurmtest.Cluster, job string) bool {
	out, err := c.Command("squeue", "--noheader", "--jobs="+job).Output()
	return err == nil && strings.TrimSpace(string(out)) != ""
}
