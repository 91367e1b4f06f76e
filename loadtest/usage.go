package loadtest

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

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

// cpuTime is the user and system CPU a process has used so far.
type cpuTime struct{ user, system time.Duration }

func (c cpuTime) sub(o cpuTime) cpuTime { return cpuTime{c.user - o.user, c.system - o.system} }

// processCPU reads a running process's CPU time from /proc/PID/stat (all
// its threads; the kernel reports it in 1/100 s).
func processCPU(pid int) (cpuTime, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return cpuTime{}, fmt.Errorf("bench: read server CPU time: %w", err)
	}
	// The command name in parentheses may hold spaces: fields count after it.
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		return cpuTime{}, fmt.Errorf("bench: unexpected /proc/%d/stat", pid)
	}
	const tick = 10 * time.Millisecond // USER_HZ is 100 on Linux
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return cpuTime{}, fmt.Errorf("bench: parse /proc/%d/stat: %w", pid, err)
	}
	return cpuTime{time.Duration(utime) * tick, time.Duration(stime) * tick}, nil
}
