package sim

import (
	"cmp"
	"slices"
	"strings"
)

// AgentStats counts how one agent took part in one simulation: the steps
// it answered in time and everything that went wrong. The organiser reads
// them in the tournament folder's stats file and in the log's per-agent
// summary at the end of each simulation.
type AgentStats struct {
	Agent string `json:"agent"`
	Team  string `json:"team"`
	// Actions counts the steps answered in time (the action was executed).
	Actions int64 `json:"actions"`
	// Timeouts counts the steps the agent was connected for but did not
	// answer in time; Offline the steps it had no connection.
	Timeouts int64 `json:"timeouts"`
	Offline  int64 `json:"offline"`
	// Late counts answers after their deadline, Stale answers with the id
	// of an earlier or unknown request (or with no request pending),
	// Duplicates second answers to one request. None of them is executed.
	Late       int64 `json:"late"`
	Stale      int64 `json:"stale"`
	Duplicates int64 `json:"duplicates"`
	// Malformed counts messages that were no valid protocol message or too
	// large; Disconnects the connections that ended during the simulation.
	Malformed   int64 `json:"malformed"`
	Disconnects int64 `json:"disconnects"`
}

// Troubled reports whether anything went wrong for the agent.
func (a AgentStats) Troubled() bool {
	return a.Timeouts+a.Offline+a.Late+a.Stale+a.Duplicates+a.Malformed+a.Disconnects > 0
}

// InTeamOrder sorts agent stats as people look for them (stats.json, the
// match record): by the simulation's team order, then by account number
// (agentA2 before agentA10), not in the world's order of agents.
func InTeamOrder(stats []AgentStats, teams []string) []AgentStats {
	slices.SortStableFunc(stats, func(a, b AgentStats) int {
		if c := cmp.Compare(slices.Index(teams, a.Team), slices.Index(teams, b.Team)); c != 0 {
			return c
		}
		sa, na, _ := splitNumber(a.Agent)
		sb, nb, _ := splitNumber(b.Agent)
		return cmp.Or(strings.Compare(sa, sb), cmp.Compare(na, nb))
	})
	return stats
}

// CommandStats say how a team's command fared in one simulation (the stats
// file, docs/config.md, "Team commands").
type CommandStats struct {
	Team string `json:"team"`
	// Agents is the {agents} the command was given; Connected says whether
	// all of those accounts were connected within teamConnectTimeout before
	// the match's first simulation of this run; QuietStart that the wait
	// ended before, because some were and no other logged in for
	// teamQuietTime; ConnectMillis how long the wait took.
	Agents        int   `json:"agents"`
	Connected     bool  `json:"connected"`
	QuietStart    bool  `json:"quietStart,omitempty"`
	ConnectMillis int64 `json:"connectMillis"`
	// Exits and Restarts count the command's exits during the simulation
	// (for the first simulation also those while the server waited for its
	// agents) and the restarts after them; Status is how it ended last.
	Exits    int    `json:"exits"`
	Restarts int    `json:"restarts"`
	Status   string `json:"status,omitempty"`
	// OutOfMemory counts the exits (among Exits) for going over
	// teamMemoryMiB; CPUMillis is the CPU time all the command's processes
	// used during the simulation (sandboxed commands only).
	OutOfMemory int   `json:"outOfMemory,omitempty"`
	CPUMillis   int64 `json:"cpuMillis,omitempty"`
	// Isolation says how the command was isolated: "none" (teamSandbox
	// "none"), or its sandbox ("namespaces, uid …, 1 CPU, …", "podman image
	// …, …"; docs/untrusted-teams.md).
	Isolation string `json:"isolation,omitempty"`
	// Note says what went wrong, as the result file's "note" does.
	Note string `json:"note,omitempty"`
}

// Outcome is one finished simulation as the tournament records it.
type Outcome struct {
	Info   Info
	Result Result
	// Commands say how the team commands fared (none without commands);
	// Notes, in match order, what went wrong for each team ("" for nothing),
	// written as "note" in the result file (docs/config.md, "Team commands").
	Commands []CommandStats
	Notes    []string
	// Absences lists, in match order, the teams with agents missing during
	// the whole simulation (none when every agent took part); those with no
	// agent connected forfeited it.
	Absences []Absence
}
