package sim

// Absence is one team's missing agents in a simulation (the manifest's
// "absences", docs/leagues.md, "Forfeits"): a team with none of its agents
// connected forfeits the simulation; with some, it played it short-handed.
type Absence struct {
	Team      string `json:"team"`
	Connected int    `json:"connected"` // agents that connected during the simulation
	Agents    int    `json:"agents"`    // agents the team plays with
	Reason    string `json:"reason"`    // for people: what went wrong, e.g. the command's first error
}

// Forfeited reports whether the team forfeited: none of its agents connected.
func (a Absence) Forfeited() bool { return a.Connected == 0 }

// ConnectedAgents counts, per team, the agents that were connected for at
// least one step of a simulation (answered in time or timed out, rather
// than offline), and the team's agents.
func ConnectedAgents(agents []AgentStats) (connected, total map[string]int) {
	connected, total = map[string]int{}, map[string]int{}
	for _, a := range agents {
		total[a.Team]++
		if a.Actions+a.Timeouts > 0 {
			connected[a.Team]++
		}
	}
	return connected, total
}
