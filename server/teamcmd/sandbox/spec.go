package sandbox

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Modes of a sandbox.
const (
	// ModeNamespaces runs the command in namespaces and a cgroup of its own.
	ModeNamespaces = "namespaces"
	// ModePodman runs it in a container of a local image.
	ModePodman = "podman"
)

// ExecArg is the hidden first argument that makes the server's binary the
// trampoline that starts a team's program in the sandbox (RunExec).
const ExecArg = "__massim-team-exec"

// Home is the team's home folder in its sandbox (HOME), Temp its temporary
// folder (TMPDIR): both on the team's scratch tmpfs.
const (
	Home = "/home/team"
	Temp = "/tmp"
)

// Limits bound one team command: all its processes together.
type Limits struct {
	CPUs      float64 `json:"cpus"`      // a share and a hard limit, in CPUs
	Memory    int64   `json:"memory"`    // bytes of memory (no swap)
	Processes int     `json:"processes"` // processes and threads
	Scratch   int64   `json:"scratch"`   // bytes of home and temporary folder
	OpenFiles int     `json:"openFiles"` // file descriptors per process
}

// String describes the limits for logs and pages: "1 CPU, 2 GiB, 1024
// processes, 512 MiB scratch, 4096 files".
func (l Limits) String() string {
	cpus := strconv.FormatFloat(l.CPUs, 'f', -1, 64) + " CPUs"
	if l.CPUs == 1 {
		cpus = "1 CPU"
	}
	return fmt.Sprintf("%s, %s memory, %d processes, %s scratch, %d open files",
		cpus, bytesText(l.Memory), l.Processes, bytesText(l.Scratch), l.OpenFiles)
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + " GiB"
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	default:
		return strconv.FormatInt(n, 10) + " bytes"
	}
}

// Spec is one team command's sandbox, as the server hands it to the
// supervisor.
type Spec struct {
	Mode   string `json:"mode"`
	Team   string `json:"team"`
	UID    int    `json:"uid"` // also the group id
	Limits Limits `json:"limits"`
	// Cgroup is the name of the team's cgroup under "massim" (CgroupName).
	Cgroup string `json:"cgroup"`
	// Hide are the paths (absolute) the team must not see; Show the
	// folders and files it sees read-only even where they lie in a hidden
	// one (its dir; the massim binary for {massim}). A hidden path inside a shown folder stays hidden (the config
	// file in a team's dir).
	Hide []string `json:"hide,omitempty"`
	Show []string `json:"show,omitempty"`
	// Podman: the engine's program, the image and the container's name.
	Engine    string `json:"engine,omitempty"`
	Image     string `json:"image,omitempty"`
	Container string `json:"container,omitempty"`
	// Grace is how long the team has between SIGTERM and SIGKILL (for the
	// container engine's stop).
	Grace time.Duration `json:"grace,omitempty"`
}

// CgroupName is the name of the cgroup of the team running as uid.
func CgroupName(uid int) string { return "team" + strconv.Itoa(uid) }

// ContainerName is the name of the container of the team running as uid.
func ContainerName(uid int) string { return "massim-team" + strconv.Itoa(uid) }

// Describe says how a team is isolated, for stats.json and the league's
// page: "namespaces, uid 2000000003, 1 CPU, …".
func (s Spec) Describe() string {
	how := s.Mode
	if s.Mode == ModePodman {
		how = "podman image " + s.Image
	}
	return how + ", uid " + strconv.Itoa(s.UID) + ", " + s.Limits.String()
}

// BaseEnv is what a sandboxed command gets of the server's environment:
// only what says where programs are and which language it runs with (PATH,
// LANG, LC_*, TZ), then HOME, TMPDIR and USER of the sandbox. The MASSIM_*
// variables and the team's env go on top.
func BaseEnv(server []string) []string {
	var out []string
	for _, kv := range server {
		name, _, _ := strings.Cut(kv, "=")
		if name == "PATH" || name == "LANG" || name == "TZ" || strings.HasPrefix(name, "LC_") {
			out = append(out, kv)
		}
	}
	return append(out, "HOME="+Home, "TMPDIR="+Temp, "USER=team", "LOGNAME=team")
}
