package season

import (
	"fmt"

	"github.com/massim-go/massim/config"
)

// Qualification is a team's standing under the season's qualification
// rule (config.Qualification; docs/seasons.md, "Qualification"), with the
// evidence: the matches that count for it.
type Qualification struct {
	Qualified bool `json:"qualified"`
	Need      int  `json:"need"` // qualifying matches the rule asks for
	// Matches are the qualifying matches, in the order they ended; once
	// qualified, the first Need of them (the evidence).
	Matches []Evidence `json:"matches"`
	// Last says why the team's latest finished match did not qualify,
	// while it is not qualified ("" when it did, or none was played).
	Last string `json:"last,omitempty"`
}

// Evidence is one finished match judged by the rule.
type Evidence struct {
	Match    int     `json:"match"`
	Kind     string  `json:"kind"`
	Score    int64   `json:"score"`
	NoAction float64 `json:"noAction"` // share of agent steps, 0…1
}

// Qualify judges team by rule over its finished matches of every kind
// (ranked, unranked, house), in the order they ended: a match qualifies
// when the team scored at least rule.MinScore over its simulations (with
// the default 1: completed a task; every task rewards at least 10) and
// its agents played no_action (no answer in time, or no connection) in
// less than rule.MaxNoAction of their steps. The team qualifies with
// rule.Matches such matches; a rule of 0 matches qualifies nobody (off).
func (h *History) Qualify(team string, rule config.Qualification) Qualification {
	q := Qualification{Need: rule.Matches, Matches: []Evidence{}}
	if rule.Matches <= 0 {
		return q
	}
	for _, m := range h.Of(team) {
		if m.State != StateFinished {
			continue
		}
		res, ok := m.Result(team)
		if !ok {
			continue
		}
		e := Evidence{Match: m.Number, Kind: m.Kind, Score: res.Score, NoAction: res.NoAction}
		why := ""
		switch {
		case res.Score < int64(rule.MinScore):
			why = fmt.Sprintf("match %s: score %d, below %d", Name(m.Number), res.Score, rule.MinScore)
		case res.NoAction < 0:
			why = fmt.Sprintf("match %s: no stats of its agents", Name(m.Number))
		case res.NoAction >= rule.MaxNoAction:
			why = fmt.Sprintf("match %s: no_action in %.1f %% of the steps, not below %.1f %%", Name(m.Number), 100*res.NoAction, 100*rule.MaxNoAction)
		}
		if q.Qualified {
			continue
		}
		q.Last = why
		if why == "" {
			q.Matches = append(q.Matches, e)
			q.Qualified = len(q.Matches) >= rule.Matches
		}
	}
	return q
}
