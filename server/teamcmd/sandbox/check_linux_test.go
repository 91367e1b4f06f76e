package sandbox

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheck_SaysWhatIsMissing(t *testing.T) {
	assert.Contains(t, usersInRange(0, 0), "user root (0)")
	err := Check(0, 10, false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "free user ids: teamUIDs [0, 10] holds")
	if os.Geteuid() == 0 {
		assert.NotContains(t, err.Error(), "root: the sandbox", "root is there")
		require.NoError(t, Check(2000000000, 2000000999, false), "this machine can build the sandbox")
	}
}
