package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var actionFastSeeds = []string{
	`{"type":"action","content":{"id":7,"type":"move","p":["n"]}}`,
	` {"content" : {"p":[], "type":"skip", "id":"12"}, "type":"action"} `,
	"{\"type\":\"action\",\"content\":{\"id\":-0,\"type\":\"clear\",\"p\":[\"1\",\"-2\"],\"x\":null,\"y\":true}}\n",
	`{"type":"action","content":{}}`,
	`{"type":"action","content":{"id":99999999999999999999,"type":"skip"}}`,
	`{"type":"action","content":{"id":1.0,"type":"skip"}}`,
	`{"type":"action","content":{"id":01,"type":"skip"}}`,
	`{"type":"action","content":{"id":1,"type":"move","p":["n"],"type":"skip"}}`,
	`{"type":"action","content":{"id":1,"type":"mo\u0076e","p":["n"]}}`,
	`{"type":"action","content":{"id":1,"type":"move","p":[1,"n"]}}`,
	`{"type":"action","content":{"id":1,"type":"move","p":"n"}}`,
	`{"type":"action","content":{"id":1,"type":7}}`,
	`{"type":"status-request","content":{}}`,
	`{"type":"action","content":{"id":1},"extra":[1]}`,
	`{"type":"action","content":{"id":1}} x`,
	`{"type":"action","content":{"id":1,}}`,
	`{"type":"action","content":{"id":1 "type":"skip"}}`,
	"{\"type\":\"action\",\"content\":{\"id\":1,\"type\":\"\xc3\xa9\"}}",
	`{"type":"action","content":{"id":truex}}`,
}

func TestDecodeActionFast_CommonShapesAndTheGeneralPathAgree(t *testing.T) {
	a, ok := decodeActionFast([]byte(actionFastSeeds[0]))
	require.True(t, ok)
	assert.Equal(t, Action{ID: 7, Type: "move", Params: []string{"n"}}, a)
	a, ok = decodeActionFast([]byte(actionFastSeeds[1]))
	require.True(t, ok)
	assert.Equal(t, Action{ID: 12, Type: "skip", Params: []string{}}, a)
	a, ok = decodeActionFast([]byte(actionFastSeeds[3]))
	require.True(t, ok)
	assert.Equal(t, Action{ID: NoID, Type: UnknownActionType, Params: []string{}}, a)
	for _, frame := range actionFastSeeds {
		checkActionFastAgrees(t, []byte(frame))
	}
}

// DecodeUsualAction gives what Decode gives wherever it accepts a frame,
// and leaves every other frame to Decode.
func TestDecodeUsualAction_IsDecodeForTheFramesItAccepts(t *testing.T) {
	accepted := 0
	for _, frame := range actionFastSeeds {
		a, ok := DecodeUsualAction([]byte(frame))
		if !ok {
			continue
		}
		accepted++
		msg, err := Decode([]byte(frame))
		require.NoError(t, err, "%q", frame)
		assert.Equal(t, msg, a, "%q", frame)
	}
	assert.Equal(t, 5, accepted) // the seeds with usual shapes
	_, ok := DecodeUsualAction([]byte(`{"type":"status-request","content":{}}`))
	assert.False(t, ok)
}

// checkActionFastAgrees: whatever the fast path accepts, the general path
// decodes to the same Action.
func checkActionFastAgrees(t *testing.T, frame []byte) {
	t.Helper()
	fast, ok := decodeActionFast(frame)
	if !ok {
		return
	}
	general, err := decodeGeneral(frame)
	require.NoError(t, err, "%q", frame)
	assert.Equal(t, general, fast, "%q", frame)
}

func FuzzDecodeActionFast(f *testing.F) {
	for _, s := range actionFastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkActionFastAgrees)
}

// BenchmarkDecodeActionGeneral is the encoding/json path every action took
// before decodeActionFast (BenchmarkDecodeAction measures Decode).
func BenchmarkDecodeActionGeneral(b *testing.B) {
	frame := []byte(`{"type":"action","content":{"id":123456,"type":"move","p":["n"]}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeGeneral(frame); err != nil {
			b.Fatal(err)
		}
	}
}
