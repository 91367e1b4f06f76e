package protocol_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/massim-go/massim/protocol"
)

func TestGameActions_ExcludeNoActionAndAreACopy(t *testing.T) {
	names := protocol.GameActions()
	assert.Len(t, names, 13)
	assert.NotContains(t, names, protocol.ActionNoAction)
	names[0] = "changed"
	assert.Equal(t, protocol.ActionSkip, protocol.GameActions()[0], "callers cannot change the list")
}

func TestIsGameAction(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{protocol.ActionMove, true},
		{protocol.ActionAdapt, true},
		{protocol.ActionNoAction, false},
		{protocol.UnknownActionType, false},
		{"fly", false},
		{"", false},
	} {
		assert.Equal(t, c.want, protocol.IsGameAction(c.name), c.name)
	}
}
