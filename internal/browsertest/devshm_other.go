//go:build !linux

package browsertest

// roomyDevShm: Chromium has no /dev/shm to run out of here.
func roomyDevShm() bool { return true }
