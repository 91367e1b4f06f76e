package config

import (
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTeamCommand_KeysAreReadWithDirRelativeToTheFileNamingIt(t *testing.T) {
	dir := t.TempDir()
	base := baseFiles(t)
	files := map[string]string{}
	for name, f := range base {
		files[name] = string(f.Data)
	}
	files["conf.json"] = replaceOnce(t, files["conf.json"], baseTeams,
		`"A": "$(teams/a.json)", "B": {"prefix": "agent", "password": "1"}`)
	files["teams/a.json"] = `{"prefix": "agent", "password": "1",
		"command": ["python3", "team.py", "--port", "{port}", "{{literal}}", "{\"json\": 1}", "{massim}"],
		"dir": "a", "env": {"SEED": "7", "WHO": "{team}-{match}"}}`
	writeTree(t, dir, files)
	cfg, err := Load(filepath.Join(dir, "conf.json"))
	require.NoError(t, err)
	a := cfg.Teams[0]
	assert.Equal(t, []string{"python3", "team.py", "--port", "{port}", "{{literal}}", `{"json": 1}`, "{massim}"}, a.Command)
	assert.Equal(t, filepath.Join(dir, "teams", "a"), a.Dir, "relative to teams/a.json, made absolute")
	assert.True(t, filepath.IsAbs(a.Dir))
	assert.Equal(t, map[string]string{"SEED": "7", "WHO": "{team}-{match}"}, a.Env)
	assert.Empty(t, cfg.UnknownKeys)
	assert.Nil(t, cfg.Teams[1].Command, "a team without a command connects by itself")

	t.Run("relative to the working folder's config path", func(t *testing.T) {
		t.Chdir(dir)
		cfg, err := Load("conf.json")
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(dir, "teams", "a"), cfg.Teams[0].Dir)
	})
}

func TestTeamCommand_Errors(t *testing.T) {
	tests := []struct {
		name, team, want string
	}{
		{"unknown placeholder", `"command": ["run", "--port", "{prot}"]`,
			`conf.json: teams.A.command[2]: unknown placeholder {prot} (known: {host} {port} {team} {prefix} {password} {agents} {match} {massim})`},
		{"unknown placeholder in env", `"command": ["run"], "env": {"X": "{teamsize}"}`,
			`conf.json: teams.A.env.X: unknown placeholder {teamsize}`},
		{"empty command", `"command": []`, `conf.json: teams.A.command: must name a program`},
		{"empty program", `"command": [""]`, `conf.json: teams.A.command[0]: the program must not be empty`},
		{"a string, not a list", `"command": "python3 team.py"`, `conf.json: teams.A.command: must be an array, not a string`},
		{"not a string argument", `"command": ["run", 3]`, `conf.json: teams.A.command[1]: must be a string, not a number`},
		{"env not strings", `"command": ["run"], "env": {"N": 3}`, `conf.json: teams.A.env.N: must be a string, not a number`},
		{"env not an object", `"command": ["run"], "env": ["N=3"]`, `conf.json: teams.A.env: must be an object of strings`},
		{"dir without command", `"dir": "a"`, `conf.json: teams.A.command: is required with "dir", "env" or "image"`},
		{"image without command", `"image": "localhost/team-a"`, `conf.json: teams.A.command: is required with "dir", "env" or "image"`},
		{"empty image", `"command": ["run"], "image": ""`, `conf.json: teams.A.image: must name a local image`},
		{"image that is a flag", `"command": ["run"], "image": "--privileged"`, `conf.json: teams.A.image: must name a local image`},
		{"empty dir", `"command": ["run"], "dir": ""`, `conf.json: teams.A.dir: must not be empty`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadEdited(t, edit{"conf.json", `"A": {"prefix": "agent", "password": "1"}`,
				`"A": {"prefix": "agent", "password": "1", ` + tt.team + `}`})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestTeam_UsesPlaceholder(t *testing.T) {
	tests := []struct {
		team Team
		want bool
	}{
		{Team{Command: []string{"{massim}", "agents"}}, true},
		{Team{Command: []string{"sh", "-c", "exec {massim} agents"}}, true},
		{Team{Command: []string{"run"}, Env: map[string]string{"BIN": "{massim}"}}, true},
		{Team{Command: []string{"run", "{{massim}}"}}, false},
		{Team{Command: []string{"massim", "{massimo}", "{port}"}}, false},
		{Team{}, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.team.UsesPlaceholder(ProgramPlaceholder), "%v %v", tt.team.Command, tt.team.Env)
	}
}

func TestExpandPlaceholders(t *testing.T) {
	values := map[string]string{"port": "12300", "team": "A"}
	tests := []struct{ in, want, err string }{
		{"{port}", "12300", ""},
		{"--port={port}/{team}", "--port=12300/A", ""},
		{"{{port}}", "{port}", ""},
		{"{} { port} {1} {", "{} { port} {1} {", ""},
		{`{"a": 1}`, `{"a": 1}`, ""},
		{"{host}", "", "unknown placeholder {host}"},
	}
	for _, tt := range tests {
		got, err := ExpandPlaceholders(tt.in, values)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
}

func TestChecksum_LeavesOutHowTeamsAndTheirCommandsRun(t *testing.T) {
	base := checksumOf(t, baseFiles(t))
	withCommand := edited(t,
		edit{"conf.json", `"A": {"prefix": "agent", "password": "1"}`,
			`"A": {"prefix": "agent", "password": "1", "command": ["run", "{port}"], "dir": "x", "env": {"K": "v"}}`},
		edit{"conf.json", `"port": 12300,`, `"port": 12300, "teamConnectTimeout": 5000, "teamStopGrace": 100, "teamRestarts": 0, "teamLogLimit": 4096,`})
	assert.Equal(t, base, checksumOf(t, withCommand), "a team may fix its command between runs of a tournament")
	otherPassword := edited(t, edit{"conf.json", `"A": {"prefix": "agent", "password": "1"}`, `"A": {"prefix": "agent", "password": "2"}`})
	assert.NotEqual(t, base, checksumOf(t, otherPassword))
}

func TestTeamServerKeys_AreExtensionKeysWithDefaults(t *testing.T) {
	cfg, err := loadEdited(t, edit{"conf.json", `"port": 12300,`,
		`"port": 12300, "teamConnectTimeout": 5000, "teamStopGrace": 0, "teamRestarts": 0, "teamLogLimit": 4096,`})
	require.NoError(t, err)
	assert.Empty(t, cfg.UnknownKeys)
	assert.Equal(t, 5000*1e6, float64(cfg.Server.TeamConnectTimeout))
	assert.Zero(t, cfg.Server.TeamStopGrace)
	assert.Zero(t, cfg.Server.TeamRestarts)
	assert.Equal(t, 4096, cfg.Server.TeamLogLimit)
	_, err = loadEdited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "teamLogLimit": 10,`})
	assert.ErrorContains(t, err, "server.teamLogLimit")
	_, err = loadEdited(t, edit{"conf.json", `"port": 12300,`, `"port": 12300, "teamConnectTimeout": 0,`})
	assert.ErrorContains(t, err, "server.teamConnectTimeout")
}

func TestChecksumParts_LeaveOutTheTeamCommandKeysToo(t *testing.T) {
	parts := func(files fstest.MapFS) map[string]string {
		cfg, err := LoadFS(files, "conf.json")
		require.NoError(t, err)
		p, err := cfg.ChecksumParts()
		require.NoError(t, err)
		return p
	}
	base := parts(baseFiles(t))
	withCommand := parts(edited(t, edit{"conf.json", `"A": {"prefix": "agent", "password": "1"}`,
		`"A": {"prefix": "agent", "password": "1", "command": ["run"], "env": {"K": "v"}}`}))
	assert.Empty(t, DifferingParts(base, withCommand))
}
