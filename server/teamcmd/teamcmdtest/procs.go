package teamcmdtest

import (
	"os"
	"strconv"
	"strings"

	"github.com/massim-go/massim/internal/procfs"
)

// Alive reports whether pid is a live process (a zombie is not; Linux /proc).
func Alive(pid int) bool {
	p, ok := procfs.Stat(pid)
	return ok && p.State != 'Z'
}

// GroupMembers lists the live processes of process group pgid (Linux /proc).
func GroupMembers(pgid int) []int {
	var out []int
	for _, p := range procfs.All() {
		if p.PGRP == pgid && p.State != 'Z' {
			out = append(out, p.PID)
		}
	}
	return out
}

// Descendants lists the live descendants of pid (Linux /proc).
func Descendants(pid int) []int {
	all := procfs.All()
	parent := make(map[int]int, len(all))
	for _, p := range all {
		parent[p.PID] = p.PPID
	}
	var out []int
	for _, p := range all {
		if p.State == 'Z' {
			continue
		}
		for q := p.PPID; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p.PID)
				break
			}
		}
	}
	return out
}

// ownPIDNS is the test process's PID namespace.
func ownPIDNS() string {
	ns, _ := os.Readlink("/proc/self/ns/pid")
	return ns
}

// Sandboxed reports whether the record's program ran in a PID namespace
// of its own (a sandbox): its pids are that namespace's.
func (r Record) Sandboxed() bool { return r.PIDNS != "" && r.PIDNS != ownPIDNS() }

// InNamespace lists the live processes (the test's pids) of PID namespace
// ns (Linux /proc).
func InNamespace(ns string) []int {
	var out []int
	for _, p := range procfs.All() {
		if p.State == 'Z' {
			continue
		}
		if link, err := os.Readlink("/proc/" + strconv.Itoa(p.PID) + "/ns/pid"); err == nil && link == ns {
			out = append(out, p.PID)
		}
	}
	return out
}

// HostPID is the test's pid of the process that the record's program knew
// as inner (for a program outside a sandbox, inner itself); 0 when that
// process does not live.
func (r Record) HostPID(inner int) int {
	if !r.Sandboxed() {
		if Alive(inner) {
			return inner
		}
		return 0
	}
	for _, pid := range InNamespace(r.PIDNS) {
		if nsPID(pid) == inner {
			return pid
		}
	}
	return 0
}

// nsPID is the innermost pid of a process (the last of NSpid in its
// status).
func nsPID(pid int) int {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "NSpid:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				n, _ := strconv.Atoi(f[len(f)-1])
				return n
			}
		}
	}
	return 0
}

// Gone reports whether nothing of a record's program lives: its process,
// its children and its process group, and for a sandboxed program any
// process of its PID namespace.
func Gone(r Record) bool {
	if r.Sandboxed() {
		return len(InNamespace(r.PIDNS)) == 0
	}
	for _, pid := range append([]int{r.PID}, r.Children...) {
		if Alive(pid) {
			return false
		}
	}
	return len(GroupMembers(r.PGID)) == 0
}
