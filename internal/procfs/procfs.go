// Package procfs reads what the team command supervisor and its tests need
// to know about processes from Linux's /proc: every pid, and of one
// process its state, parent and process group. Elsewhere there is no /proc:
// PIDs is empty and Stat finds nothing.
package procfs

import (
	"bytes"
	"os"
	"strconv"
)

// Process is what /proc/<pid>/stat says about a process.
type Process struct {
	PID   int
	State byte // 'R', 'S', 'Z' (a zombie: ended, not yet reaped), …
	PPID  int
	PGRP  int
}

// PIDs lists the processes there are.
func PIDs() []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// All reads every process there is (those that end meanwhile are left out).
func All() []Process {
	var out []Process
	for _, pid := range PIDs() {
		if p, ok := Stat(pid); ok {
			out = append(out, p)
		}
	}
	return out
}

// Stat reads /proc/<pid>/stat. The fields after the command name count
// from its closing parenthesis: the name itself may hold blanks and
// parentheses.
func Stat(pid int) (Process, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Process{}, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return Process{}, false
	}
	f := bytes.Fields(data[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return Process{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgrp, err2 := strconv.Atoi(string(f[2]))
	if err1 != nil || err2 != nil {
		return Process{}, false
	}
	return Process{PID: pid, State: f[0][0], PPID: ppid, PGRP: pgrp}, true
}
