package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/massim-go/massim/config"
	"github.com/massim-go/massim/evaluate"
	"github.com/massim-go/massim/scenario/normaudit"
	"github.com/massim-go/massim/sim"
)

var contest2022 = filepath.Join("..", "..", defaultScoresConf)

// The example has the parameters of the three simulations of the 2022
// contest (SampleTournamentConfig.json of the official server).
func TestContest2022Config_HasTheContestSimulations(t *testing.T) {
	cfg, err := config.Load(contest2022)
	require.NoError(t, err)
	assert.Empty(t, cfg.Warnings)
	assert.Empty(t, cfg.UnknownKeys)
	skipped, err := sim.CheckMatches(cfg)
	require.NoError(t, err)
	assert.Empty(t, skipped)
	require.Len(t, cfg.Match, 3)
	for i, want := range []struct {
		steps, agents, size int
		cave                float64
		blockTypes, maxTask int
		iterations          config.Bounds
	}{
		{400, 20, 70, 0.5, 2, 3, config.Bounds{Min: 10, Max: 12}},
		{600, 20, 70, 0.6, 3, 4, config.Bounds{Min: 5, Max: 10}},
		{800, 40, 100, 0.6, 3, 4, config.Bounds{Min: 5, Max: 10}},
	} {
		m := cfg.Match[i]
		assert.Equal(t, want.steps, m.Steps, i)
		assert.Equal(t, want.agents, m.TeamSize, i)
		assert.Equal(t, want.size, m.Grid.Width, i)
		assert.Equal(t, want.size, m.Grid.Height, i)
		require.Len(t, m.Grid.Instructions, 1)
		assert.Equal(t, []float64{want.cave, 2, 5, 4}, m.Grid.Instructions[0].Args, i)
		assert.Equal(t, config.Bounds{Min: want.blockTypes, Max: want.blockTypes}, m.BlockTypes, i)
		assert.Equal(t, config.Bounds{Min: 1, Max: want.maxTask}, m.Tasks.Size, i)
		assert.Equal(t, want.iterations, m.Tasks.Iterations, i)
		assert.Equal(t, 2, m.Tasks.Concurrent, i)
		assert.Len(t, m.Roles, 5, i)
		assert.Len(t, m.Regulation.Subjects, 4, i)
		assert.False(t, m.HasRandomSeed, "the seed comes from the clock, as in the contest")
	}
}

func TestScores_PlaysEachSimulationAndOpponentAndPrintsJSON(t *testing.T) {
	var out, errOut bytes.Buffer
	auditFile := filepath.Join(t.TempDir(), "audit.jsonl")
	code := run([]string{"scores", "-conf", contest2022, "-sims", "1", "-steps", "60", "-seeds", "2", "-json", "-audit", auditFile}, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	var got struct {
		Games []evaluate.Result `json:"games"`
		Table []evaluate.Row    `json:"table"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &got), out.String())
	require.Len(t, got.Games, 4) // two opponents × two seeds
	require.Len(t, got.Table, 2)
	for _, r := range got.Table {
		assert.Equal(t, "contest2022-sim1", r.Sim)
		assert.Equal(t, []int64{1, 2}, r.Seeds)
		assert.Len(t, r.A, 2)
	}
	assert.Equal(t, "random", got.Table[0].Opponent)
	assert.Equal(t, "builder", got.Table[1].Opponent)
	// The audit (from the server's snapshots) sees the same violations as
	// the agents' percepts, and each of its episodes belongs to a game.
	episodes := map[string]int64{}
	raw, err := os.ReadFile(auditFile)
	require.NoError(t, err)
	for _, line := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var ep struct {
			Seed  int64           `json:"seed"`
			Team  string          `json:"team"`
			Opp   string          `json:"opponent"`
			Split normaudit.Split `json:"split"`
		}
		require.NoError(t, json.Unmarshal(line, &ep), string(line))
		episodes[fmt.Sprint(ep.Opp, ep.Seed, ep.Team)] += ep.Split.Avoidable + ep.Split.Unavoidable
	}
	for _, g := range got.Games {
		assert.Equal(t, 60, g.Steps)
		for i, team := range []string{"A", "B"} {
			split := evaluate.TotalSplit(g.Avoidable[i])
			total := g.Violations[i].Carry + g.Violations[i].Adopt
			assert.Equal(t, total, split.Avoidable+split.Unavoidable, "%s seed %d team %s", g.Opponent, g.Seed, team)
			assert.Equal(t, total, episodes[fmt.Sprint(g.Opponent, g.Seed, team)], "%s seed %d team %s", g.Opponent, g.Seed, team)
		}
	}
}

func TestScores_PrintsATable(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"scores", "-conf", contest2022, "-sims", "1", "-steps", "5", "-seeds", "1", "-vs", "random"}, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	assert.Contains(t, out.String(), "contest2022-sim1")
	assert.Contains(t, out.String(), "mean A")
	assert.Contains(t, errOut.String(), "contest2022-sim1 vs random seed 1:")
}

// A team command (our sample agents, as any other program would be) is
// evaluated in place of the builder, two games at a time.
func TestScores_EvaluatesATeamCommandTwoGamesAtATime(t *testing.T) {
	bin := buildMassim(t)
	command := bin + " agents -host {host} -port {port} -team {team} -count {agents} -password {password} -strategy random"
	var out, errOut bytes.Buffer
	code := run([]string{"scores", "-conf", contest2022, "-sims", "1", "-steps", "20", "-seeds", "2", "-vs", "random,builder",
		"-team", command, "-parallel", "2", "-json"}, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	var got struct {
		Games []evaluate.Result `json:"games"`
		Table []evaluate.Row    `json:"table"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &got), out.String())
	require.Len(t, got.Games, 4)
	for i, g := range got.Games {
		assert.Equal(t, []string{"random", "random", "builder", "builder"}[i], g.Opponent, "the order of the flags, not of the ends")
		assert.Equal(t, int64(1+i%2), g.Seed)
		require.NotNil(t, g.Command, "team A is the command")
		assert.True(t, g.Command.Connected, "its 20 agents connected in time: %+v", *g.Command)
		assert.Equal(t, 20, g.Command.Agents)
	}
	require.Len(t, got.Table, 2)

	out.Reset()
	code = run([]string{"scores", "-conf", contest2022, "-sims", "1", "-steps", "5", "-seeds", "1", "-vs", "random", "-team", command}, &out, &errOut)
	require.Equal(t, 0, code, errOut.String())
	assert.Contains(t, out.String(), "team (A) per seed")
}

func TestScores_BadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-sims", "4"}, {"-sims", "x"}, {"-vs", "genius"}, {"-seeds", "0"}, {"-parallel", "0"},
	} {
		var out, errOut bytes.Buffer
		assert.Equal(t, 2, run(append([]string{"scores", "-conf", contest2022}, args...), &out, &errOut), args)
		assert.NotEmpty(t, errOut.String(), args)
	}
}
