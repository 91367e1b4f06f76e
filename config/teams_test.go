package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const baseTeams = `"A": {"prefix": "agent", "password": "1"},
    "B": {"prefix": "agent", "password": "1"}`

func TestTeamOrderIsFileOrder(t *testing.T) {
	cfg, err := loadEdited(t, edit{"conf.json", baseTeams,
		`"zeta": {"prefix": "z", "password": "pz"}, "GOAL-DTU": {"prefix": "agent", "password": "g"},
		 "alpha": {"prefix": "a", "password": "pa"}, "FIT_BUT": {"prefix": "agent", "password": "f"}`})
	require.NoError(t, err)
	names := []string{}
	for _, team := range cfg.Teams {
		names = append(names, team.Name)
	}
	assert.Equal(t, []string{"zeta", "GOAL-DTU", "alpha", "FIT_BUT"}, names)
	assert.Equal(t, Team{Name: "alpha", Prefix: "a", Password: "pa"}, cfg.Teams[2])
}

func TestAccountsCoverTheLargestTeamInTeamOrder(t *testing.T) {
	files := edited(t,
		edit{"conf.json", `"match": ["$(sim/sim.json)"]`, `"match": ["$(sim/sim.json)", "$(sim/big.json)"]`},
		edit{"conf.json", baseTeams, `"B": {"prefix": "agent", "password": "b"}, "A": {"prefix": "bot", "password": "a"}`},
	)
	// A second simulation with 6 agents per team, given in the documented array form.
	big := replaceOnce(t, string(files["sim/sim.json"].Data), `{"standard": 4}`, `[{"a": 2}, {"b": 3, "c": 1}]`)
	files["sim/big.json"] = mapFS(map[string]string{"f": big})["f"]
	cfg, err := LoadFS(files, "conf.json")
	require.NoError(t, err)
	assert.Equal(t, []int{4, 6}, cfg.TeamSizes())
	assert.Equal(t, 6, cfg.MaxTeamSize())
	accounts := cfg.Accounts()
	require.Len(t, accounts, 12)
	assert.Equal(t, Account{User: "agentB1", Password: "b", Team: "B", Index: 1}, accounts[0])
	assert.Equal(t, Account{User: "agentB6", Password: "b", Team: "B", Index: 6}, accounts[5])
	assert.Equal(t, Account{User: "botA1", Password: "a", Team: "A", Index: 1}, accounts[6])
	assert.Equal(t, Account{User: "botA6", Password: "a", Team: "A", Index: 6}, accounts[11])
}

func TestAccountClashes(t *testing.T) {
	tests := []struct {
		name  string
		teams string
		want  string // "" = no clash
	}{
		{"different stems", `"A": {"prefix": "agent", "password": "1"}, "B": {"prefix": "agentA", "password": "1"}`, ""},
		{"same stem, different split", `"A": {"prefix": "x", "password": "1"}, "xA": {"prefix": "", "password": "1"}`,
			`conf.json: teams.xA: account "xA1" is also an account of team "A"`},
		// agentA with 4 agents has agentA1..agentA4; team "A1"'s first account is agentA11: no clash.
		{"digit suffix beyond team size", `"A": {"prefix": "agent", "password": "1"}, "A1": {"prefix": "agent", "password": "1"}`, ""},
		{"digit suffix, later team shorter", `"A0": {"prefix": "agent", "password": "1"}, "A": {"prefix": "agent", "password": "1"}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadEdited(t, edit{"conf.json", baseTeams, tt.teams})
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.EqualError(t, err, configErr(tt.want))
		})
	}
	// With 20 agents, "A" owns agentA11 … agentA19, which team "A1" also produces.
	_, err := loadEdited(t,
		edit{"sim/sim.json", `{"standard": 4}`, `{"standard": 20}`},
		edit{"conf.json", baseTeams, `"A": {"prefix": "agent", "password": "1"}, "A1": {"prefix": "agent", "password": "2"}`})
	assert.EqualError(t, err, `config: conf.json: teams.A1: account "agentA11" is also an account of team "A"`)
}

func TestAccountClashRule(t *testing.T) {
	tests := []struct {
		a, b Team
		size int
		user string
	}{
		{Team{Name: "A", Prefix: "agent"}, Team{Name: "A", Prefix: "agent"}, 1, "agentA1"},
		{Team{Name: "A", Prefix: "agent"}, Team{Name: "A1", Prefix: "agent"}, 10, ""},
		{Team{Name: "A", Prefix: "agent"}, Team{Name: "A1", Prefix: "agent"}, 11, "agentA11"},
		{Team{Name: "A1", Prefix: "agent"}, Team{Name: "A", Prefix: "agent"}, 11, "agentA11"},
		{Team{Name: "A", Prefix: "agent"}, Team{Name: "A12", Prefix: "agent"}, 121, "agentA121"},
		{Team{Name: "A", Prefix: "agent"}, Team{Name: "A12", Prefix: "agent"}, 120, ""},
		{Team{Name: "A", Prefix: "agent"}, Team{Name: "A01", Prefix: "agent"}, 1000, ""}, // no number starts with 0
		{Team{Name: "A", Prefix: "agent"}, Team{Name: "Ab", Prefix: "agent"}, 1000, ""},
		{Team{Name: "B", Prefix: "agent"}, Team{Name: "A", Prefix: "agent"}, 1000, ""},
	}
	for _, tt := range tests {
		user, clash := accountClash(tt.a, tt.b, tt.size)
		assert.Equal(t, tt.user != "", clash, "%v %v %d", tt.a, tt.b, tt.size)
		assert.Equal(t, tt.user, user)
		if clash { // cross-check by listing the accounts
			assert.Contains(t, accountsOf(tt.a, tt.size), user)
			assert.Contains(t, accountsOf(tt.b, tt.size), user)
		}
	}
}

func accountsOf(team Team, size int) []string {
	var users []string
	for i := 1; i <= size; i++ {
		users = append(users, team.AccountName(i))
	}
	return users
}

func TestManualMode(t *testing.T) {
	const threeTeams = `"A": {"prefix": "agent", "password": "1"}, "B": {"prefix": "agent", "password": "1"}, "C": {"prefix": "agent", "password": "1"}`
	manual := edit{"conf.json", `"round-robin"`, `"manual"`}
	teams := edit{"conf.json", baseTeams, threeTeams}
	withEntries := func(entries string) edit {
		return edit{"conf.json", `"match": [`, `"manual-mode": ` + entries + `, "match": [`}
	}
	tests := []struct {
		name    string
		entries string
		want    string
	}{
		{"unknown team", `[["A", "B"], ["B", "D"]]`, `conf.json: manual-mode[1]: unknown team "D"`},
		{"too many teams", `[["A", "B", "C"]]`, `conf.json: manual-mode[0]: must name exactly 2 teams (teamsPerMatch), not 3`},
		{"too few teams", `[["A"]]`, `conf.json: manual-mode[0]: must name exactly 2 teams (teamsPerMatch), not 1`},
		{"same team twice", `[["A", "A"]]`, `conf.json: manual-mode[0]: team "A" named twice`},
		{"empty name", `[["A", ""]]`, `conf.json: manual-mode[0]: unknown team ""`},
		{"not a name", `[["A", 1]]`, `conf.json: manual-mode[0][1]: must be a string, not a number`},
		{"entry not an array", `["A"]`, `conf.json: manual-mode[0]: must be an array, not a string`},
		{"no entries", `[]`, `conf.json: manual-mode: must list at least one match`},
		{"not an array", `{}`, `conf.json: manual-mode: must be an array, not an object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadEdited(t, manual, teams, withEntries(tt.entries))
			assert.EqualError(t, err, configErr(tt.want))
		})
	}

	cfg, err := loadEdited(t, manual, teams, withEntries(`[["C", "A"], ["B", "C"]]`))
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"C", "A"}, {"B", "C"}}, cfg.ManualMode)

	_, err = loadEdited(t, manual)
	assert.EqualError(t, err, `config: conf.json: manual-mode: is required when tournamentMode is "manual"`)

	// Manual mode does not need teamsPerMatch <= number of teams: its entries decide.
	_, err = loadEdited(t, manual, edit{"conf.json", `"teamsPerMatch": 2`, `"teamsPerMatch": 3`}, withEntries(`[["A", "B"]]`))
	assert.EqualError(t, err, `config: conf.json: manual-mode[0]: must name exactly 3 teams (teamsPerMatch), not 2`)
}

func TestManualModeIgnoredInOtherModes(t *testing.T) {
	// The official samples carry a manual-mode block naming a team "C" that
	// does not exist; in round-robin mode it is not looked at.
	for _, mode := range []string{ModeRoundRobin, ModeRandom} {
		cfg, err := loadEdited(t,
			edit{"conf.json", `"round-robin"`, `"` + mode + `"`},
			edit{"conf.json", `"match": [`, `"manual-mode": [["A", "B"], ["B", "C"], 7], "match": [`})
		require.NoError(t, err, mode)
		assert.Nil(t, cfg.ManualMode)
		assert.Empty(t, cfg.UnknownKeys)
	}
}
