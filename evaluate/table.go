package evaluate

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/massim-go/massim/clients/agent"
	"github.com/massim-go/massim/clients/team"
	"github.com/massim-go/massim/protocol"
	"github.com/massim-go/massim/scenario/normaudit"
)

// ViolationCounts are agent-steps with a violated norm, by the norm's
// subject as the percept describes it: Carry limits things (a block
// requirement), Adopt limits a role.
type ViolationCounts struct {
	Carry int64 `json:"carry"`
	Adopt int64 `json:"adopt"`
	// ByRole splits the Adopt violations by the role the norm limited.
	ByRole map[string]int64 `json:"byRole,omitempty"`
}

// violationTally counts the violations the agents of one team see in
// their percepts; agents act in parallel goroutines.
type violationTally struct {
	mu sync.Mutex
	c  ViolationCounts
}

func (t *violationTally) counts() ViolationCounts {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.c
	c.ByRole = maps.Clone(c.ByRole)
	return c
}

// wrap makes every behaviour of nb report its percepts' violations.
func (t *violationTally) wrap(nb team.NewBehaviour) team.NewBehaviour {
	return func(index int, user string) agent.Behaviour {
		return &violationWatcher{Behaviour: nb(index, user), tally: t}
	}
}

type violationWatcher struct {
	agent.Behaviour
	tally *violationTally
}

func (w *violationWatcher) Act(ra *protocol.RequestAction) (string, []string) {
	for _, name := range ra.Percept.Violations {
		i := slices.IndexFunc(ra.Percept.Norms, func(n protocol.Norm) bool { return n.Name == name })
		var req protocol.NormRequirement
		if i >= 0 && len(ra.Percept.Norms[i].Requirements) > 0 {
			req = ra.Percept.Norms[i].Requirements[0]
		}
		w.tally.mu.Lock()
		if req.Type == "block" {
			w.tally.c.Carry++
		} else {
			w.tally.c.Adopt++
			if w.tally.c.ByRole == nil {
				w.tally.c.ByRole = map[string]int64{}
			}
			w.tally.c.ByRole[req.Name]++
		}
		w.tally.mu.Unlock()
	}
	return w.Behaviour.Act(ra)
}

// Row is one line of the table: a simulation and an opponent, the
// builder's (A) and the opponent's (B) scores per seed and their means.
type Row struct {
	Sim        string                        `json:"sim"`
	Opponent   string                        `json:"opponent"`
	Seeds      []int64                       `json:"seeds"`
	A          []int64                       `json:"a"`
	B          []int64                       `json:"b"`
	MeanA      float64                       `json:"meanA"`
	MeanB      float64                       `json:"meanB"`
	Violations [2]ViolationCounts            `json:"violations"` // summed over the seeds
	Avoidable  [2]map[string]normaudit.Split `json:"avoidable"`
}

// Rows groups games by simulation and opponent, in play order.
func Rows(games []Result) []Row {
	var rows []Row
	for _, g := range games {
		i := slices.IndexFunc(rows, func(r Row) bool { return r.Sim == g.Sim && r.Opponent == g.Opponent })
		if i < 0 {
			rows = append(rows, Row{Sim: g.Sim, Opponent: g.Opponent})
			i = len(rows) - 1
		}
		r := &rows[i]
		r.Seeds = append(r.Seeds, g.Seed)
		r.A = append(r.A, g.Score[0])
		r.B = append(r.B, g.Score[1])
		for t := range r.Violations {
			r.Violations[t].Carry += g.Violations[t].Carry
			r.Violations[t].Adopt += g.Violations[t].Adopt
			for role, n := range g.Violations[t].ByRole {
				if r.Violations[t].ByRole == nil {
					r.Violations[t].ByRole = map[string]int64{}
				}
				r.Violations[t].ByRole[role] += n
			}
			addSplits(&r.Avoidable[t], g.Avoidable[t])
		}
	}
	for i := range rows {
		rows[i].MeanA, rows[i].MeanB = mean(rows[i].A), mean(rows[i].B)
	}
	return rows
}

func mean(xs []int64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum int64
	for _, x := range xs {
		sum += x
	}
	return float64(sum) / float64(len(xs))
}

// PrintTable writes the rows as an aligned table. teamA names team A in
// the header: "builder", or "team" for a team command, whose percept
// violations are not seen in process (shown as "-").
func PrintTable(out io.Writer, rows []Row, teamA string) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "simulation\t%s vs\tseeds\t%s (A) per seed\tmean A\topponent (B) per seed\tmean B\tviolations A carry/adopt\tavoidable (unaware, beyond team, beyond linked, beyond seen)/not\tB carry/adopt\tavoidable (unaware, beyond team, beyond linked, beyond seen)/not\t\n", teamA, teamA)
	for _, r := range rows {
		a, b := TotalSplit(r.Avoidable[0]), TotalSplit(r.Avoidable[1])
		seenA := fmt.Sprintf("%d/%d", r.Violations[0].Carry, r.Violations[0].Adopt)
		if teamA != "builder" {
			seenA = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.1f\t%s\t%.1f\t%s\t%d (%d, %d, %d, %d)/%d\t%d/%d\t%d (%d, %d, %d, %d)/%d\t\n", r.Sim, r.Opponent, joinInts(r.Seeds), joinInts(r.A), r.MeanA,
			joinInts(r.B), r.MeanB, seenA, a.Avoidable, a.Unaware, a.BeyondTeam, a.BeyondLinked, a.BeyondSeen, a.Unavoidable,
			r.Violations[1].Carry, r.Violations[1].Adopt, b.Avoidable, b.Unaware, b.BeyondTeam, b.BeyondLinked, b.BeyondSeen, b.Unavoidable)
	}
	tw.Flush()
}

func joinInts(xs []int64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, " ")
}
