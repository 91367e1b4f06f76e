package browsertest

import "syscall"

// roomyDevShm tells whether /dev/shm can hold Chromium's shared memory:
// a tmpfs of at least 1 GiB (containers often mount 64 MB, which Chromium
// fills and crashes on).
func roomyDevShm() bool {
	var st syscall.Statfs_t
	if err := syscall.Statfs("/dev/shm", &st); err != nil {
		return false
	}
	return uint64(st.Blocks)*uint64(st.Bsize) >= 1<<30
}
