package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// LeaseUID takes the first free user id of [first, last] and returns it
// with its lease: an abstract Unix socket named after the id, bound as long
// as one process holds the file (the server passes it to the supervisor,
// which holds it until nothing of the team is left). A second holder of the
// same name cannot bind it, across every process of the machine's network
// namespace; the kernel frees the name when its last holder exits, however
// it ends, and nothing is written anywhere.
func LeaseUID(first, last int) (int, *os.File, error) {
	for uid := first; uid <= last; uid++ {
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
		if err != nil {
			return 0, nil, fmt.Errorf("sandbox: lease a user id: %w", err)
		}
		err = unix.Bind(fd, &unix.SockaddrUnix{Name: leaseName(uid)})
		if err == nil {
			return uid, os.NewFile(uintptr(fd), "uid lease "+strconv.Itoa(uid)), nil
		}
		_ = unix.Close(fd)
		if !errors.Is(err, unix.EADDRINUSE) {
			return 0, nil, fmt.Errorf("sandbox: lease user id %d: %w", uid, err)
		}
	}
	return 0, nil, fmt.Errorf("sandbox: every user id of teamUIDs [%d, %d] is in use by a running team command; give teamUIDs a larger range", first, last)
}

// leaseName is the abstract socket name of a lease ("@" makes it abstract).
func leaseName(uid int) string { return "@massim-team-uid-" + strconv.Itoa(uid) }
