//go:build linux

package slurm

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/massim-go/massim/internal/massimbin"
	"github.com/massim-go/massim/league/slurm/slurmtest"
	"github.com/stretchr/testify/require"
)

// submittedArrays are the job arrays "massim league -slurm -submit"
// printed for a split league, and its merge job.
type submittedArrays struct {
	arrays []submittedArray
	merge  string
}

type submittedArray struct {
	script, id  string
	first, last int
}

// parseSplitSubmit reads the console of -submit for a split league.
func parseSplitSubmit(t *testing.T, out string) submittedArrays {
	t.Helper()
	var s submittedArrays
	line := regexp.MustCompile(`submitted \S+/(matches-\d+-\d+\.sbatch): job array (\d+) \((\d+) tasks, matches (\d+)-(\d+): task t plays match`)
	for _, m := range line.FindAllStringSubmatch(out, -1) {
		first, _ := strconv.Atoi(m[4])
		last, _ := strconv.Atoi(m[5])
		tasks, _ := strconv.Atoi(m[3])
		require.Equal(t, last-first+1, tasks, out)
		s.arrays = append(s.arrays, submittedArray{script: m[1], id: m[2], first: first, last: last})
	}
	var ids []string
	for _, a := range s.arrays {
		ids = append(ids, a.id)
	}
	merge := regexp.MustCompile(`merge job (\d+), after job arrays ` + strings.Join(ids, ", ") + ` \(afterany\)`).FindStringSubmatch(out)
	require.NotNil(t, merge, "massim league -submit printed: %s", out)
	s.merge = merge[1]
	return s
}

// TestSplitLeagueOnSlurm plays leagues larger than the MaxArraySize of a
// real one-node Slurm (4 in its slurm.conf): massim league reads it with
// scontrol, splits the matches into several job arrays, the merge runs
// after all of them, and a part that was cancelled is submitted again as
// docs/leagues.md ("Slurm") says, by some of its task ids and then whole.
// Every match is recorded once.
func TestSplitLeagueOnSlurm(t *testing.T) {
	massim := massimbin.Path(t)
	c := slurmtest.Start(t, "MaxArraySize=4")
	require.Regexp(t, `(?m)^MaxArraySize\s*=\s*4$`, c.Run("scontrol", "show", "config"))

	t.Run("ten matches in three arrays", func(t *testing.T) {
		root := filepath.Join(c.Dir, "split")
		dir := filepath.Join(root, "league")
		conf := writeLeagueConfig(t, filepath.Join(root, "conf", "league.json"), massim, 5, 0)
		began := time.Now()
		out := run(t, c.Command(massim, "league", "-conf", conf, "-dir", dir, "-slurm", "-submit", "-slurm-opt", "--time=00:10:00"))
		require.Contains(t, out, "10 matches in 3 job arrays: MaxArraySize 4 (scontrol show config) allows task ids 0-3")
		jobs := parseSplitSubmit(t, out)
		require.Equal(t, []submittedArray{
			{"matches-0-3.sbatch", jobs.arrays[0].id, 0, 3},
			{"matches-4-7.sbatch", jobs.arrays[1].id, 4, 7},
			{"matches-8-9.sbatch", jobs.arrays[2].id, 8, 9},
		}, jobs.arrays)
		// The merge waits for every array; the arrays do not wait for one
		// another (no -parallel).
		dependency := field(c.Run("scontrol", "show", "job", jobs.merge), "Dependency")
		for _, a := range jobs.arrays {
			require.Contains(t, dependency, "afterany:"+a.id+"_*", "the merge's dependency")
			require.Equal(t, "(null)", field(c.Run("scontrol", "show", "job", a.id), "Dependency"), "array %s", a.id)
		}
		// The last part is cancelled (a user's mistake, a time limit too
		// short …) while the first ones play; it is submitted again below.
		last := jobs.arrays[2]
		c.Run("scancel", last.id)

		c.WaitFor("the league's jobs to end", 5*time.Minute, func() bool {
			return !queued(c, jobs.arrays[0].id) && !queued(c, jobs.arrays[1].id) && !queued(c, last.id) && !queued(c, jobs.merge)
		})
		t.Logf("10 matches in 3 arrays (the last cancelled): %v from submission to the merged standings", time.Since(began).Round(100*time.Millisecond))
		// The merge ran after every task: its standings hold every match
		// recorded by then, which is each match of the first two arrays.
		recorded := recordedStandings(t, dir, 10)
		for i := range 8 {
			m, ok := readManifest(filepath.Join(dir, planMatchDir(t, dir, i)))
			require.True(t, ok && m.State == "finished", "match %d of the arrays that were not cancelled", i)
		}
		require.Equal(t, recorded, addStandings(t, nil, filepath.Join(dir, "standings.json")), "the merge did not run after every array")

		// Again: some tasks of the part (task 1: match 9), then the whole
		// part (match 8 plays, match 9 is left alone), then the merge.
		script := Path(dir, last.script)
		some := strings.TrimSpace(c.Run("sbatch", "--parsable", "--array=1", script))
		c.WaitFor("task 1 of the part again", 3*time.Minute, func() bool { return !queued(c, some) })
		m, ok := readManifest(filepath.Join(dir, planMatchDir(t, dir, 9)))
		require.True(t, ok && m.State == "finished", "task 1 of %s did not play match 9", last.script)
		whole := strings.TrimSpace(c.Run("sbatch", "--parsable", script))
		merge := strings.TrimSpace(c.Run("sbatch", "--parsable", "--dependency=afterany:"+whole, Path(dir, MergeScript)))
		c.WaitFor("the part and its merge to end", 3*time.Minute, func() bool { return !queued(c, whole) && !queued(c, merge) })

		checkEveryMatchOnce(t, dir, 10, 5)
		log, err := os.ReadFile(Path(dir, "match-9.out"))
		require.NoError(t, err)
		require.Contains(t, string(log), "the tournament is already finished", "match 9's second task should have found it finished")
		_, err = os.Stat(Path(dir, "matches-8-9.out"))
		require.NoError(t, err, "the array's own output file (Slurm's lines)")
	})

	t.Run("-parallel chains the arrays", func(t *testing.T) {
		root := filepath.Join(c.Dir, "chained")
		dir := filepath.Join(root, "league")
		conf := writeLeagueConfig(t, filepath.Join(root, "conf", "league.json"), massim, 3, 0)
		// -slurm-max-array: below the cluster's own.
		out := run(t, c.Command(massim, "league", "-conf", conf, "-dir", dir, "-slurm", "-submit", "-parallel", "1", "-slurm-max-array", "2"))
		require.Contains(t, out, "3 matches in 2 job arrays: MaxArraySize 2 (-slurm-max-array) allows task ids 0-1")
		jobs := parseSplitSubmit(t, out)
		require.Len(t, jobs.arrays, 2)
		first, second := jobs.arrays[0], jobs.arrays[1]
		require.Contains(t, field(c.Run("scontrol", "show", "job", second.id), "Dependency"), "afterany:"+first.id+"_*")
		c.WaitFor("the league's jobs to end", 5*time.Minute, func() bool {
			return !queued(c, first.id) && !queued(c, second.id) && !queued(c, jobs.merge)
		})
		checkEveryMatchOnce(t, dir, 3, 3)

		// One match at a time: no task started before the one before it
		// had ended, within and across the arrays (Slurm keeps the records
		// of ended jobs for MinJobAge, 300 s).
		var tasks []taskTimes
		for _, a := range jobs.arrays {
			got := arrayTaskTimes(t, c.Run("scontrol", "show", "job", a.id))
			require.Len(t, got, a.last-a.first+1, "array %s", a.id)
			tasks = append(tasks, got...)
		}
		for i := 1; i < len(tasks); i++ {
			require.False(t, tasks[i].start.Before(tasks[i-1].end), "task %d started at %v, before task %d ended at %v", i, tasks[i].start, i-1, tasks[i-1].end)
		}
	})
}

// checkEveryMatchOnce checks that each of the league's matches finished
// with both its simulations recorded once and one result file, and that the
// merged standings are the sum of the matches', each team having played
// all the others.
func checkEveryMatchOnce(t *testing.T, dir string, matches, teams int) {
	t.Helper()
	for i := range matches {
		folder := filepath.Join(dir, planMatchDir(t, dir, i))
		m, ok := readManifest(folder)
		require.True(t, ok, "match %d has no manifest", i)
		require.Equal(t, "finished", m.State, "match %d", i)
		require.Len(t, m.Simulations, 2, "match %d: each simulation recorded once", i)
		results, err := filepath.Glob(filepath.Join(folder, "result_*.json"))
		require.NoError(t, err)
		require.Len(t, results, 1, "match %d: one result file", i)
		log, err := os.ReadFile(Path(dir, "match-"+strconv.Itoa(i)+".out"))
		require.NoError(t, err, "match %d's output", i)
		require.Contains(t, string(log), "match starts", "match %d's output", i)
	}
	merged := addStandings(t, nil, filepath.Join(dir, "standings.json"))
	require.Equal(t, recordedStandings(t, dir, matches), merged, "the league's standings are not the sum of its matches'")
	require.Len(t, merged, teams)
	for team, s := range merged {
		require.Equal(t, 2*(teams-1), s.Played, "team %s: a match of two simulations against each other team", team)
	}
}

// recordedStandings adds the standings of every match folder that has them.
func recordedStandings(t *testing.T, dir string, matches int) map[string]standing {
	t.Helper()
	sum := map[string]standing{}
	for i := range matches {
		path := filepath.Join(dir, planMatchDir(t, dir, i), "standings.json")
		if _, err := os.Stat(path); err == nil {
			sum = addStandings(t, sum, path)
		}
	}
	return sum
}

// field is the value of KEY=value in the output of "scontrol show job"
// (its first record).
func field(out, key string) string {
	for _, word := range strings.Fields(out) {
		if v, ok := strings.CutPrefix(word, key+"="); ok {
			return v
		}
	}
	return ""
}

type taskTimes struct{ start, end time.Time }

// arrayTaskTimes reads the start and end of every task of an ended array
// from "scontrol show job ID", in the order of the task ids.
func arrayTaskTimes(t *testing.T, out string) []taskTimes {
	t.Helper()
	byTask := map[int]taskTimes{}
	var task = -1
	lines := bufio.NewScanner(strings.NewReader(out))
	for lines.Scan() {
		line := lines.Text()
		if v := field(line, "ArrayTaskId"); v != "" {
			n, err := strconv.Atoi(v)
			require.NoError(t, err, line)
			task = n
		}
		if v := field(line, "StartTime"); v != "" {
			start, err := time.ParseInLocation("2006-01-02T15:04:05", v, time.Local)
			require.NoError(t, err, line)
			end, err := time.ParseInLocation("2006-01-02T15:04:05", field(line, "EndTime"), time.Local)
			require.NoError(t, err, line)
			require.GreaterOrEqual(t, task, 0, out)
			byTask[task] = taskTimes{start, end}
		}
	}
	tasks := make([]taskTimes, len(byTask))
	for i := range tasks {
		times, ok := byTask[i]
		require.True(t, ok, "no task %d in %s", i, out)
		tasks[i] = times
	}
	return tasks
}
