//go:build !unix

package loadtest

import "os"

// peakRSSMB is unknown here: the process state carries no peak memory.
func peakRSSMB(*os.ProcessState) float64 { return 0 }
