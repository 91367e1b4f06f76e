package tournament

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/massim-go/massim/internal/atomicfile"
	"github.com/massim-go/massim/internal/filestamp"
	"github.com/massim-go/massim/sim"
)

// WriteResultFile writes the match result file of docs/config.md, "Result files":
// <dir>/result_<yyyy-MM-dd-HH-mm-ss>.json, pretty-printed with 4 spaces,
// simulations and teams in order. An existing file is never overwritten: the
// name gets -2, -3, … instead.
func WriteResultFile(dir string, end time.Time, sims []sim.Outcome) (string, error) {
	if dir == "" {
		return "", nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("tournament: create result folder %s: %w", dir, err)
	}
	data := resultJSON(sims)
	base := "result_" + filestamp.Format(end)
	for n := 1; ; n++ {
		name := base + ".json"
		if n > 1 {
			name = base + "-" + strconv.Itoa(n) + ".json"
		}
		path := filepath.Join(dir, name)
		// Atomic: a crash never leaves a result file with part of its
		// content (the crash loop, docs/tournaments.md).
		err := atomicfile.Create(path, data, atomicfile.Options{Durable: true})
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("tournament: write result file: %w", err)
		}
		return path, nil
	}
}

// resultJSON renders the ordered result object by hand: Go maps would lose
// the order of simulations and teams.
func resultJSON(sims []sim.Outcome) []byte {
	var b bytes.Buffer
	b.WriteString("{")
	for i, o := range sims {
		if i > 0 {
			b.WriteString(",")
		}
		name, _ := json.Marshal(o.Info.Name)
		fmt.Fprintf(&b, "\n    %s: {", name)
		for j, ts := range o.Result.Scores {
			if j > 0 {
				b.WriteString(",")
			}
			team, _ := json.Marshal(ts.Team)
			fmt.Fprintf(&b, "\n        %s: {\n            \"score\": %d", team, ts.Score)
			if j < len(o.Notes) && o.Notes[j] != "" {
				// A massim-go extension next to the official key (docs/config.md, "Result files").
				note, _ := json.Marshal(o.Notes[j])
				fmt.Fprintf(&b, ",\n            \"note\": %s", note)
			}
			writeAbsence(&b, o.Absences, ts.Team)
			b.WriteString("\n        }")
		}
		b.WriteString("\n    }")
	}
	b.WriteString("\n}\n")
	return b.Bytes()
}

// writeAbsence adds a team's absence to its object in the result file, as
// massim-go extensions next to "score" (docs/config.md, "Result files"):
// "forfeit": true when none of its agents connected, "connected" and
// "agents" counts and the "absence" reason whenever some were missing. They
// go inside the team's object, not beside the teams, so that a reader of
// the official format, which takes every key of a simulation for a team,
// reads the file as before.
func writeAbsence(b *bytes.Buffer, absences []sim.Absence, team string) {
	i := slices.IndexFunc(absences, func(a sim.Absence) bool { return a.Team == team })
	if i < 0 {
		return
	}
	a := absences[i]
	if a.Forfeited() {
		b.WriteString(",\n            \"forfeit\": true")
	}
	reason, _ := json.Marshal(a.Reason)
	fmt.Fprintf(b, ",\n            \"connected\": %d,\n            \"agents\": %d,\n            \"absence\": %s", a.Connected, a.Agents, reason)
}
