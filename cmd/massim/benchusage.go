package main

import "os"

// exitUsage is what an ended server process used: its CPU time and, where
// the system reports it, its peak resident memory (0 where it does not).
type exitUsage struct {
	cpu       cpuTime
	peakRSSMB float64
}

// usageOf reads an ended process's usage. CPU time comes from the portable
// accessors of os.ProcessState so that bench builds on every platform; only
// the peak memory needs the system's own record (peakRSSMB).
func usageOf(ps *os.ProcessState) exitUsage {
	return exitUsage{
		cpu:       cpuTime{user: ps.UserTime(), system: ps.SystemTime()},
		peakRSSMB: peakRSSMB(ps),
	}
}

// mb is bytes in mebibytes, as bench reports memory.
func mb(bytes int64) float64 { return float64(bytes) / (1 << 20) }
