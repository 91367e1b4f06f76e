//go:build unix

package loadtest

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSSMB is the process's peak resident set from its rusage: the kernel
// reports it in KiB, except on Apple systems, which report bytes.
func peakRSSMB(ps *os.ProcessState) float64 {
	usage, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return mb(int64(usage.Maxrss))
	}
	return mb(int64(usage.Maxrss) << 10)
}
