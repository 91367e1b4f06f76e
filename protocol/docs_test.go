package protocol

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsonBlock finds the ```json examples of a Markdown file.
var jsonBlock = regexp.MustCompile("(?s)```json\n(.*?)```")

// TestDocsExamplesAreWhatWeSend checks every JSON example of
// docs/protocol.md: each is valid JSON, and each complete message decodes
// and encodes back to exactly its text, so the page shows what the server
// and our clients really write.
func TestDocsExamplesAreWhatWeSend(t *testing.T) {
	doc, err := os.ReadFile("../docs/protocol.md")
	require.NoError(t, err)
	blocks := jsonBlock.FindAllSubmatch(doc, -1)
	require.NotEmpty(t, blocks)
	messages := map[string]bool{}
	for _, b := range blocks {
		text := bytes.TrimSpace(b[1])
		var compact bytes.Buffer
		require.NoError(t, json.Compact(&compact, text), "not JSON: %s", text)
		var envelope Envelope
		if json.Unmarshal(text, &envelope) != nil || envelope.Type == "" || envelope.Content == nil {
			continue // a part of a message (a task, a norm)
		}
		msg, err := Decode(text)
		require.NoError(t, err, "%s", text)
		out, err := Marshal(msg)
		require.NoError(t, err)
		assert.Equal(t, compact.String(), string(out), "the example must be what Marshal writes")
		messages[msg.MessageType()] = true
	}
	for _, typ := range []string{TypeAuthRequest, TypeAuthResponse, TypeStatusRequest, TypeStatusResponse,
		TypeSimStart, TypeRequestAction, TypeAction, TypeSimEnd, TypeBye} {
		assert.True(t, messages[typ], "docs/protocol.md shows no %s example", typ)
	}
}
