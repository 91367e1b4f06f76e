package tournament

import (
	"time"

	"github.com/massim-go/massim/scenario"
	"github.com/massim-go/massim/sim"
)

// RecordOf is the manifest entry of a finished simulation.
func RecordOf(o sim.Outcome) SimRecord {
	r := SimRecord{Match: o.Info.Match, Index: o.Info.Index, Name: o.Info.Name, MatchStart: o.Info.MatchStart.UnixMilli()}
	for i, ts := range o.Result.Scores {
		tr := TeamResult{Team: ts.Team, Score: ts.Score, Ranking: o.Result.Ranking[i]}
		if i < len(o.Notes) {
			tr.Note = o.Notes[i]
		}
		r.Scores = append(r.Scores, tr)
	}
	r.Absences = o.Absences
	r.Forfeit = ForfeitsOf(o.Absences)
	return r
}

// StatsOf is the stats file entry of a finished simulation.
func StatsOf(o sim.Outcome) SimStats {
	return SimStats{Name: o.Info.Name, Match: o.Info.Match, Index: o.Info.Index, Teams: o.Info.Teams,
		Steps: o.Info.Steps, Agents: o.Result.Agents, Commands: o.Commands}
}

// Outcomes turns manifest entries back into simulation outcomes, as much
// of them as a result file needs.
func Outcomes(records []SimRecord) []sim.Outcome {
	out := make([]sim.Outcome, len(records))
	for i, r := range records {
		o := sim.Outcome{Info: sim.Info{Name: r.Name, MatchStart: time.UnixMilli(r.MatchStart), Match: r.Match, Index: r.Index, Teams: r.Teams()}}
		for _, ts := range r.Scores {
			o.Result.Scores = append(o.Result.Scores, scenario.TeamScore{Team: ts.Team, Score: ts.Score})
			o.Result.Ranking = append(o.Result.Ranking, ts.Ranking)
			o.Notes = append(o.Notes, ts.Note)
		}
		o.Absences = r.Absences
		out[i] = o
	}
	return out
}
