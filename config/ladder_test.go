package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLadder(t *testing.T) {
	const teams = `"teams": {`
	tests := []struct {
		name  string
		block string // the ladder block, "" for none
		check func(t *testing.T, l Ladder)
		err   string // a part of the error ("" for none)
	}{
		{"Defaults", "", func(t *testing.T, l Ladder) { assert.Equal(t, DefaultLadder(), l) }, ""},
		{"Values", `{"seed": 7, "maxMatches": 4, "rest": 1500, "rematchAfter": 0, "recent": 2, "houseTeam": "random",
			"houseWait": 30000, "provisional": 3, "rankedPerHour": 2, "unrankedPerHour": 0, "requestExpiry": 60000,
			"qualification": {"matches": 1, "minScore": 40, "maxNoAction": 0.5}}`,
			func(t *testing.T, l Ladder) {
				assert.Equal(t, Ladder{Seed: 7, HasSeed: true, MaxMatches: 4, Rest: 1500 * time.Millisecond, Recent: 2,
					HouseTeam: HouseRandom, HouseWait: 30 * time.Second, Provisional: 3, RankedPerHour: 2,
					RequestExpiry: time.Minute, Qualification: Qualification{Matches: 1, MinScore: 40, MaxNoAction: 0.5}}, l)
			}, ""},
		{"PartialQualification", `{"qualification": {"matches": 0}}`, func(t *testing.T, l Ladder) {
			assert.Equal(t, Qualification{Matches: 0, MinScore: 1, MaxNoAction: 0.3}, l.Qualification)
		}, ""},
		{"BadHouse", `{"houseTeam": "robots"}`, nil, `conf.json: ladder.houseTeam: must be "builder", "random" or "off"`},
		{"NegativeRest", `{"rest": -1}`, nil, "conf.json: ladder.rest: must be >= 0"},
		{"BadShare", `{"qualification": {"maxNoAction": 1.5}}`, nil, "conf.json: ladder.qualification.maxNoAction: must be between 0 and 1"},
		{"NotAnObject", `[]`, nil, "conf.json: ladder: must be an object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var edits []edit
			if tc.block != "" {
				edits = append(edits, edit{"conf.json", teams, `"ladder": ` + tc.block + `, ` + teams})
			}
			cfg, err := loadEdited(t, edits...)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Empty(t, cfg.UnknownKeys)
			tc.check(t, cfg.Ladder)
		})
	}
}

func TestLadder_UnknownKeyNamesTheNearest(t *testing.T) {
	cfg, err := loadEdited(t, edit{"conf.json", `"teams": {`, `"ladder": {"houseWiat": 5}, "teams": {`})
	require.NoError(t, err)
	require.Len(t, cfg.UnknownKeys, 1)
	assert.Contains(t, cfg.UnknownKeys[0], "ladder.houseWiat: unknown key (did you mean houseWait?)")
}

func TestAccountClash(t *testing.T) {
	user, clash := AccountClash(Team{Name: "A", Prefix: "agent"}, Team{Name: "A1", Prefix: "agent"}, 20)
	assert.True(t, clash)
	assert.Equal(t, "agentA11", user)
	_, clash = AccountClash(Team{Name: "house", Prefix: "ladder-"}, Team{Name: "A", Prefix: "agent"}, 20)
	assert.False(t, clash)
}
