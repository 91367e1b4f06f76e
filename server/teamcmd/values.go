package teamcmd

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/massim-go/massim/config"
)

// Values are what a team command learns about its match, as {placeholders}
// in its arguments and env values and as MASSIM_* variables
// (docs/config.md, "Team commands").
type Values struct {
	Host     string // where the agents connect
	Port     int    // the agent port the server has bound
	Team     string
	Prefix   string
	Password string
	Agents   int    // the team size of the match's first simulation
	Match    string // the match's id: its log file and {match}
	// Massim is {massim}, the massim binary; "" means the running one
	// (Massim()).
	Massim string
}

// Massim is the path of the running massim binary, {massim} (symbolic
// links resolved: a sandbox shows the file itself).
func Massim() string {
	exe, err := os.Executable()
	if err != nil {
		return os.Args[0]
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		return real
	}
	return exe
}

// placeholders maps each placeholder name to its value.
func (v Values) placeholders() map[string]string {
	massim := v.Massim
	if massim == "" {
		massim = Massim()
	}
	return map[string]string{
		"host": v.Host, "port": strconv.Itoa(v.Port), "team": v.Team, "prefix": v.Prefix,
		"password": v.Password, "agents": strconv.Itoa(v.Agents), "match": v.Match,
		config.ProgramPlaceholder: massim,
	}
}

// Expand fills the placeholders of a team's command in and returns its
// argv and the variables to add to the server's environment: MASSIM_HOST,
// MASSIM_PORT, MASSIM_TEAM, MASSIM_PREFIX, MASSIM_PASSWORD, MASSIM_AGENTS,
// MASSIM_MATCH, then the team's env (names sorted; a team's env may
// override a MASSIM_ variable). {massim} has no variable.
func Expand(team config.Team, v Values) (argv, env []string, err error) {
	values := v.placeholders()
	for i, arg := range team.Command {
		a, err := config.ExpandPlaceholders(arg, values)
		if err != nil {
			return nil, nil, fmt.Errorf("teamcmd: team %s: command[%d]: %w", team.Name, i, err)
		}
		argv = append(argv, a)
	}
	for _, name := range config.TeamPlaceholders {
		env = append(env, "MASSIM_"+upper(name)+"="+values[name])
	}
	names := make([]string, 0, len(team.Env))
	for name := range team.Env {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		value, err := config.ExpandPlaceholders(team.Env[name], values)
		if err != nil {
			return nil, nil, fmt.Errorf("teamcmd: team %s: env %s: %w", team.Name, name, err)
		}
		env = append(env, name+"="+value)
	}
	return argv, env, nil
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
