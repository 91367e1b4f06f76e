package teamcmdtest

import "github.com/massim-go/massim/internal/procfs"

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
