package evaluate

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/scenario/normaudit"
	"github.com/massim-go/massim/sim"
)

// auditObserver sorts a game's norm violations into avoidable and
// unavoidable ones (package normaudit) from the server's snapshots.
type auditObserver struct {
	mu    sync.Mutex
	audit *normaudit.Audit
}

func (o *auditObserver) SimulationStarted(info sim.Info, static scenario.Static, initial *scenario.Snapshot) {
	speed := map[string]int{}
	for _, r := range info.Config.Roles {
		if len(r.Speed) > 0 {
			speed[r.Name] = r.Speed[0]
		}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.audit = normaudit.New(normaudit.Params{Width: static.Width, Height: static.Height, Speed: speed}, initial)
}

func (o *auditObserver) StepDone(_ sim.Info, snap *scenario.Snapshot) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.audit != nil {
		o.audit.Observe(snap)
	}
}

func (o *auditObserver) SimulationEnded(sim.Info, sim.Result) {}

// result returns the split of teams A and B and every episode.
func (o *auditObserver) result() ([2]map[string]normaudit.Split, []normaudit.Episode) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.audit == nil {
		return [2]map[string]normaudit.Split{}, nil
	}
	return [2]map[string]normaudit.Split{o.audit.Team("A"), o.audit.Team("B")}, o.audit.Episodes()
}

// WriteEpisodes appends a game's episodes as JSON lines, each with the
// game's simulation, opponent and seed.
func WriteEpisodes(w io.Writer, g Result, eps []normaudit.Episode) error {
	enc := json.NewEncoder(w)
	for _, ep := range eps {
		line := struct {
			Sim      string `json:"sim"`
			Opponent string `json:"opponent"`
			Seed     int64  `json:"seed"`
			normaudit.Episode
		}{g.Sim, g.Opponent, g.Seed, ep}
		if err := enc.Encode(line); err != nil {
			return fmt.Errorf("evaluate: write audit: %w", err)
		}
	}
	return nil
}

// addSplits adds the splits of src to dst by key.
func addSplits(dst *map[string]normaudit.Split, src map[string]normaudit.Split) {
	for k, s := range src {
		if *dst == nil {
			*dst = map[string]normaudit.Split{}
		}
		d := (*dst)[k]
		d.Add(s)
		(*dst)[k] = d
	}
}

// TotalSplit sums the splits of every key.
func TotalSplit(m map[string]normaudit.Split) normaudit.Split {
	var t normaudit.Split
	for _, s := range m {
		t.Add(s)
	}
	return t
}
