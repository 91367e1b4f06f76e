package league

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/massim-go/massim/tournament"
	"github.com/rs/zerolog"
)

// How often the view is refreshed: redrawn in place on a terminal every
// viewTick, a log line every logEvery otherwise.
const (
	viewTick = 500 * time.Millisecond
	logEvery = 5 * time.Second
	// liveStandingsRows caps the standings in the terminal block, so that
	// a course's 30 teams do not scroll the running matches away.
	liveStandingsRows = 10
)

// status is what the view shows, owned by the runner's loop.
type status struct {
	planned, done, failed, left int
	stepsPlayed                 int // by the matches this run ended
	running                     []*child
	started                     time.Time
	matchSteps                  int   // steps of a whole match
	steps                       []int // steps of each simulation
	standings                   []tournament.Standing
	// forfeited and partial count the finished matches with a forfeit and
	// those with only teams short of agents; absences are their lines
	// ("003-A-C: C forfeited (…)"), the latest last.
	forfeited, partial int
	absences           []string
}

// liveAbsenceRows caps the absence lines in the terminal block; all of
// them are in standings.txt and the final summary.
const liveAbsenceRows = 5

// absent counts a finished match's absences.
func (st *status) absent(list []Absent) {
	if len(list) == 0 {
		return
	}
	if len(ForfeitingTeams(list)) > 0 {
		st.forfeited++
	} else {
		st.partial++
	}
	st.absences = append(st.absences, list[0].Match.Name()+": "+DescribeAbsences(list, len(st.steps)))
}

// View shows a league's progress: on a terminal a block of lines rewritten
// in place (the counts, each running match's simulation and step, the
// standings), otherwise a log line every few seconds.
type View struct {
	mu       sync.Mutex
	out      io.Writer
	terminal bool
	log      *zerolog.Logger
	drawn    int // lines of the block on screen
	lastLog  time.Time
}

// NewView shows progress on out, redrawn in place when out is a
// terminal; otherwise it logs to the logger SetLog gives it.
func NewView(out io.Writer, terminal bool) *View {
	return &View{out: out, terminal: terminal}
}

// SetLog gives the view its logger (built after the view, since on a
// terminal it writes around it: LogsAround).
func (v *View) SetLog(log *zerolog.Logger) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.log = log
}

// LogsAround returns the writer for log lines that go to the view's
// terminal: each line clears the block first and the next refresh draws
// it again below. Off a terminal it is w itself.
func (v *View) LogsAround(w io.Writer) io.Writer {
	if v == nil || !v.terminal {
		return w
	}
	return writerFunc(func(b []byte) (int, error) {
		v.mu.Lock()
		defer v.mu.Unlock()
		v.clear()
		return w.Write(b)
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// show refreshes the view.
func (v *View) show(st *status, now time.Time) {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.terminal {
		v.clear()
		lines := v.block(st, now)
		fmt.Fprint(v.out, strings.Join(lines, "\n")+"\n")
		v.drawn = len(lines)
		return
	}
	if now.Sub(v.lastLog) < logEvery {
		return
	}
	v.lastLog = now
	if v.log == nil {
		return
	}
	ev := v.log.Info().Int("done", st.done).Int("running", len(st.running)).Int("left", st.left).Int("failed", st.failed).
		Int("forfeited", st.forfeited).Int("partial", st.partial)
	if left, ok := st.timeLeft(now); ok {
		ev = ev.Int64("timeLeft_s", int64(left.Round(time.Second).Seconds()))
	}
	arr := zerolog.Arr()
	for _, c := range st.running {
		arr = arr.Str(c.progressText(len(st.steps)))
	}
	ev.Array("matches", arr).Msg("league progress")
}

// matchEnded shows the standings after a match (terminal: in the block).
func (v *View) matchEnded(st *status, now time.Time) {
	if v == nil {
		return
	}
	v.mu.Lock()
	v.lastLog = time.Time{}
	v.mu.Unlock()
	v.show(st, now)
}

// finish leaves the last block on screen.
func (v *View) finish() {
	if v == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.drawn = 0
}

// clear removes the block from the terminal (the cursor is below it).
func (v *View) clear() {
	if v.drawn > 0 {
		fmt.Fprintf(v.out, "\033[%dA\033[J", v.drawn)
		v.drawn = 0
	}
}

// block is the view's text on a terminal.
func (v *View) block(st *status, now time.Time) []string {
	head := fmt.Sprintf("league: %d/%d matches done, %d running, %d left", st.done, st.planned, len(st.running), st.left)
	if st.failed > 0 {
		head += fmt.Sprintf(", %d failed", st.failed)
	}
	if st.forfeited > 0 {
		head += fmt.Sprintf(", %d with forfeits", st.forfeited)
	}
	if st.partial > 0 {
		head += fmt.Sprintf(", %d with agents missing", st.partial)
	}
	head += ", " + formatDuration(now.Sub(st.started)) + " so far"
	if left, ok := st.timeLeft(now); ok {
		head += ", about " + formatDuration(left) + " left"
	}
	lines := []string{head}
	for _, c := range st.running {
		lines = append(lines, "  "+c.progressText(len(st.steps)))
	}
	if n := len(st.absences); n > 0 {
		if n > liveAbsenceRows {
			lines = append(lines, fmt.Sprintf("  … %d more matches with absences in standings.txt", n-liveAbsenceRows))
		}
		for _, a := range st.absences[max(0, n-liveAbsenceRows):] {
			lines = append(lines, "  ! "+a)
		}
	}
	rows := st.standings[:min(len(st.standings), liveStandingsRows)]
	var table strings.Builder
	if err := tournament.WriteStandingsTable(&table, rows); err == nil {
		lines = append(lines, strings.Split(strings.TrimRight(table.String(), "\n"), "\n")...)
	}
	if more := len(st.standings) - len(rows); more > 0 {
		lines = append(lines, fmt.Sprintf("  … %d more teams in standings.txt", more))
	}
	return lines
}

// progressText is one running match: its name, simulation and step.
func (c *child) progressText(sims int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sim < 0 {
		return c.match.Name() + "  starting"
	}
	return fmt.Sprintf("%s  simulation %d/%d  step %d/%d", c.match.Name(), c.sim+1, sims, max(c.step, 0), max(c.steps-1, 0))
}

// progress is how far the child is into its match (inMatch) and how many
// of those steps it played itself (since: a resumed match starts after
// the simulations recorded before), in steps. A finished match has played
// all of them.
func (c *child) progress(steps []int, finished bool) (inMatch, since int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	sum := func(from, to int) int {
		n := 0
		for i := max(from, 0); i < to && i < len(steps); i++ {
			n += steps[i]
		}
		return n
	}
	if c.firstSim < 0 {
		return 0, 0
	}
	if finished {
		return sum(0, len(steps)), sum(c.firstSim, len(steps))
	}
	step := max(c.step+1, 0)
	return sum(0, c.sim) + step, sum(c.firstSim, c.sim) + step
}

// timeLeft estimates the time left from the steps this run has played so
// far (in finished matches and in the running ones).
func (st *status) timeLeft(now time.Time) (time.Duration, bool) {
	elapsed := now.Sub(st.started)
	done, left := st.stepsPlayed, st.left*st.matchSteps
	for _, c := range st.running {
		inMatch, since := c.progress(st.steps, false)
		done += since
		left += max(st.matchSteps-inMatch, 0)
	}
	if done == 0 || elapsed <= 0 {
		return 0, false
	}
	return time.Duration(float64(left) / float64(done) * float64(elapsed)), true
}

// formatDuration is a duration for people: 1h02m, 3m05s, 12s.
func formatDuration(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	switch {
	case h > 0:
		return fmt.Sprintf("%dh%02dm", h, m)
	case m > 0:
		return fmt.Sprintf("%dm%02ds", m, s)
	}
	return fmt.Sprintf("%ds", s)
}
