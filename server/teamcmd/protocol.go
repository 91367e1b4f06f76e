package teamcmd

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/massim-go/massim/server/teamcmd/sandbox"
)

// SupervisorArg is the hidden first argument that makes the server's binary
// a team supervisor (see ServeIfSupervisor).
const SupervisorArg = "__massim-team-supervisor"

// spec is what the server tells a supervisor, as one JSON line on its
// standard input (not in its arguments or environment: the password would
// show in ps, and the team's variables would change the supervisor too).
type spec struct {
	Argv     []string      `json:"argv"`
	Env      []string      `json:"env"` // the command's whole environment
	Dir      string        `json:"dir,omitempty"`
	Log      string        `json:"log,omitempty"` // "" discards the output
	LogLimit int           `json:"logLimit"`
	Restarts int           `json:"restarts"`
	Grace    time.Duration `json:"grace"`
	// Sandbox, when set, is the sandbox the supervisor builds around itself
	// (it was started in the sandbox's namespaces and holds the lease of
	// its user id as descriptor 4). It reports "ready" once built and
	// starts the command when the server writes the line "go" (the server
	// has opened the agent port inside the sandbox).
	Sandbox *sandbox.Spec `json:"sandbox,omitempty"`
}

// goLine is what the server writes to a sandboxed supervisor when the
// command may start.
const goLine = "go\n"

// event is what a supervisor reports, one JSON line each on its file
// descriptor 3 on Unix (not standard output: Go kills a program that writes
// to a broken pipe on descriptors 1 and 2, and the server may be gone), on
// standard output on Windows (which passes no other descriptors).
type event struct {
	Kind string `json:"event"` // "ready" (a sandbox), "started", "exited"
	PID  int    `json:"pid,omitempty"`
	// Exited: how the command ended ("exit status 1", "signal: killed",
	// "cannot start: …"), whether it ended on its own (not stopped) and
	// whether it is started again.
	Status  string `json:"status,omitempty"`
	Stopped bool   `json:"stopped,omitempty"`
	Restart bool   `json:"restart,omitempty"`
	// OutOfMemory: the kernel killed a process of the command for memory,
	// and the supervisor the rest.
	OutOfMemory bool `json:"oom,omitempty"`
}

// ServeIfSupervisor runs the team supervisor and exits when this process
// was started as one (os.Args[1] == SupervisorArg); otherwise it returns at
// once. Call it first in main and in the TestMain of every test binary that
// starts team commands: the supervisor is the binary itself, run again.
func ServeIfSupervisor() {
	if len(os.Args) >= 2 && os.Args[1] == sandbox.ExecArg {
		sandbox.RunExec() // the trampoline of a sandboxed command: it never returns
	}
	if len(os.Args) < 2 || os.Args[1] != SupervisorArg {
		return
	}
	if err := supervise(os.Stdin, eventsOut()); err != nil {
		fmt.Fprintf(os.Stderr, "massim team supervisor: %v\n", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// reporter writes events; a server that has gone makes writing fail, which
// changes nothing for the supervisor.
type reporter struct{ enc *json.Encoder }

func (r reporter) report(e event) { _ = r.enc.Encode(e) }
