package teamcmdtest

import (
	"bytes"
	"os"
	"strconv"
)

// Alive reports whether pid is a live process (a zombie is not; Linux /proc).
func Alive(pid int) bool {
	st, ok := stat(pid)
	return ok && st.state != 'Z'
}

// GroupMembers lists the live processes of process group pgid (Linux /proc).
func GroupMembers(pgid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := stat(pid); ok && st.pgrp == pgid && st.state != 'Z' {
			out = append(out, pid)
		}
	}
	return out
}

// Descendants lists the live descendants of pid (Linux /proc).
func Descendants(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	parent := map[int]int{}
	live := map[int]bool{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := stat(p); ok {
			parent[p] = st.ppid
			live[p] = st.state != 'Z'
		}
	}
	var out []int
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				if live[p] {
					out = append(out, p)
				}
				break
			}
		}
	}
	return out
}

type procStat struct {
	state      byte
	ppid, pgrp int
}

// stat reads state, parent and process group from /proc/<pid>/stat.
func stat(pid int) (procStat, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := bytes.Fields(data[i+1:])
	if len(f) < 4 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	pgrp, err2 := strconv.Atoi(string(f[2]))
	if err1 != nil || err2 != nil || len(f[0]) != 1 {
		return procStat{}, false
	}
	return procStat{state: f[0][0], ppid: ppid, pgrp: pgrp}, true
}
