package sandbox

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLeaseUID_EachIDOnceUntilReleased(t *testing.T) {
	const first = 1999000000 // not the default range: a team of another test may hold those
	a, leaseA, err := LeaseUID(first, first+1)
	require.NoError(t, err)
	b, leaseB, err := LeaseUID(first, first+1)
	require.NoError(t, err)
	assert.Equal(t, []int{first, first + 1}, []int{a, b})
	assert.True(t, leased(first))
	_, _, err = LeaseUID(first, first+1)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "every user id of teamUIDs [1999000000, 1999000001] is in use")
	require.NoError(t, leaseA.Close())
	again, leaseAgain, err := LeaseUID(first, first+1)
	require.NoError(t, err)
	assert.Equal(t, first, again, "a released id is taken again")
	require.NoError(t, leaseAgain.Close())
	require.NoError(t, leaseB.Close())
	assert.False(t, leased(first+1))
}

// leased reports whether some process holds the lease of uid.
func leased(uid int) bool {
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return true
	}
	defer unix.Close(fd)
	return unix.Bind(fd, &unix.SockaddrUnix{Name: leaseName(uid)}) != nil
}
