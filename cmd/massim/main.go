// Command massim is the massim-go server and its tools in one binary.
//
//	massim                         the demo: a short match of two sample teams
//	massim serve -conf FILE        run the tournament of a config file
//	massim match -conf FILE -teams A,B -out DIR   play one match (one job of a split tournament)
//	massim league -conf FILE -dir DIR   play a whole tournament, match processes in parallel
//	massim ladder -conf FILE -dir DIR   run a season: matches whenever teams are ready
//	massim standings DIR...        merge the standings of tournament or match folders
//	massim accounts -conf FILE     the credential sheet of each team
//	massim agents -team A ...      connect sample agents to a server
//	massim map -conf FILE -o F.png render a simulation's initial world
//	massim replay DIR              view replays in the browser
//	massim replay verify PATH      play a compact replay again and compare every step
//	massim replay convert SRC DST  official folder ↔ compact file
//
// Run "massim help" for every subcommand and its flags.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/massim-go/massim/server/teamcmd"
)

// exitError carries a process exit code up to main. Its err may be nil:
// the command has already said what went wrong and only the code remains.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return "exit code " + strconv.Itoa(e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"demo", "play a short demo match of two sample teams (the default)", runDemo},
		{"serve", "run the tournament of a config file", runServe},
		{"match", "play one match of a config's teams into a folder", runMatch},
		{"league", "play every match of a tournament as match processes, several at a time, into a league folder", runLeague},
		{"ladder", "run a season: one agent port, matches that start whenever teams are ready, ratings, scrimmages, qualification", runLadder},
		{"standings", "merge and print the standings of tournament or match folders", runStandings},
		{"accounts", "print the credential sheet of each team of a config", runAccounts},
		{"practice", "practise against a sample team on a local server, with the monitor and a replay; or from a step of a replay", runPractice},
		{"agents", "connect sample agents to a server", runAgents},
		{"map", "render the initial world of a simulation as a PNG, with a terrain summary", runMap},
		{"replay", "view replays in the browser; replay verify, replay convert", runReplay},
		{"publish", "write tournaments, leagues or replays as a static web site with the viewer", runPublish},
		{"scores", "play seeds of the 2022 contest simulations: builder against random and against builder, a score table", runScores},
		{"bench", "load test: one match of instant-answering agents against a server process", runBench},
		{"bench-monitor", "load test: step time and memory of a match with and without live viewers", runBenchMonitor},
		{"bench-ladder", "load test: many matches at once in one ladder process, step lateness, CPU and memory per match", runBenchLadder},
	}
}

func main() {
	teamcmd.ServeIfSupervisor() // the binary run again to supervise a team command
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	name := "demo"
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		// The subcommands, not the flags of the demo (massim demo -h).
		usage(stdout)
		return 0
	}
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if name == "help" || name == "-h" || name == "--help" {
		usage(stdout)
		return 0
	}
	for _, c := range commands() {
		if c.name == name {
			err := c.run(args, stdout, stderr)
			if err == nil {
				return 0
			}
			var ee *exitError
			if errors.As(err, &ee) {
				if ee.err != nil {
					fmt.Fprintf(stderr, "massim %s: %v\n", name, ee.err)
				}
				return ee.code
			}
			fmt.Fprintf(stderr, "massim %s: %v\n", name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "massim: unknown command %q\n\n", name)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: massim [command] [flags]")
	fmt.Fprintln(w)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun \"massim <command> -h\" for the flags of a command.")
}
