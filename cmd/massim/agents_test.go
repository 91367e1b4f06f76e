package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAgents_BehaviourFileNeedsTheBuilderStrategy(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 2, run([]string{"agents", "-strategy", "random", "-behaviour", "x.bt"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "-behaviour needs -strategy builder")
}

func TestAgents_ABrokenBehaviourFileIsReportedBeforeConnecting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.bt")
	require.NoError(t, os.WriteFile(path, []byte("team t { worker: rest }\nbehavior worker {\n  action teleport\n}\n"), 0o644))
	var out, errOut bytes.Buffer
	code := run([]string{"agents", "-strategy", "builder", "-behaviour", path, "-port", "1"}, &out, &errOut)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut.String(), path+":3:3: unknown skill \"teleport\"")
}

func TestAgents_ATeamFileThatLeavesAgentsOutIsRejected(t *testing.T) {
	path := filepath.Join(t.TempDir(), "few.bt")
	require.NoError(t, os.WriteFile(path, []byte("team t { w: 2 }\nbehavior w { action explore }\n"), 0o644))
	var out, errOut bytes.Buffer
	code := run([]string{"agents", "-strategy", "builder", "-behaviour", path, "-count", "5", "-port", "1"}, &out, &errOut)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut.String(), "3 of 5 agents get no behaviour")
}

func TestDemoStrategy_BuilderPlaysTheFirstTeam(t *testing.T) {
	assert.Equal(t, "builder", demoStrategy(0))
	assert.Equal(t, "random", demoStrategy(1))
	for _, name := range []string{demoStrategy(0), demoStrategy(1)} {
		nb, err := strategyFactory(name, 1)
		require.NoError(t, err)
		assert.NotNil(t, nb(1, "agentA1"))
	}
}

func TestAgents_TraceNeedsTheBuilderStrategy(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 2, run([]string{"agents", "-strategy", "random", "-trace", "agentA3"}, &out, &errOut))
	assert.Contains(t, errOut.String(), "-trace needs -strategy builder")
}
