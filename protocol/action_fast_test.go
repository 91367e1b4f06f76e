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
	// Near the canonical form (decodeCanonicalAction) and just outside it.
	`{"type":"action","content":{"id":0,"type":"","p":[]}}`,
	`{"type":"action","content":{"id":123456789012345678,"type":"clear","p":["2","-1"]}}`,
	`{"type":"action","content":{"id":1234567890123456789,"type":"skip","p":[]}}`,
	`{"type":"action","content":{"id":07,"type":"skip","p":[]}}`,
	`{"type":"action","content":{"id":7,"type":"move","p":["n",]}}`,
	`{"type":"action","content":{"id":7,"type":"move","p":["n"]}} `,
	`{"type":"action","content":{"id":7,"type":"mo\"ve","p":["n"]}}`,
	"{\"type\":\"action\",\"content\":{\"id\":7,\"type\":\"move\",\"p\":[\"\x7f\"]}}",
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
	assert.Equal(t, 10, accepted) // the seeds with usual shapes
	_, ok := DecodeUsualAction([]byte(`{"type":"status-request","content":{}}`))
	assert.False(t, ok)
}

// checkActionFastAgrees: whatever the fast path accepts, the general path
// decodes to the same Action.
func checkActionFastAgrees(t *testing.T, frame []byte) {
	t.Helper()
	if canonical, ok := decodeCanonicalAction(frame); ok {
		scanned, ok := scanAction(frame)
		require.True(t, ok, "%q: canonical, but the scanner rejects it", frame)
		assert.Equal(t, scanned, canonical, "%q", frame)
	}
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

// An answer with one direction or rotation is decoded without allocating:
// its parameter list is shared. Sharing is safe only if nobody can grow one
// action's list into another's: appending must copy.
func TestDecodeUsualAction_OneParameterListsAreSharedAndCannotBeGrownInto(t *testing.T) {
	for _, p := range []string{"n", "s", "e", "w", "cw", "ccw"} {
		frame := []byte(`{"type":"action","content":{"id":7,"type":"move","p":["` + p + `"]}}`)
		if allocs := testing.AllocsPerRun(100, func() {
			if _, ok := DecodeUsualAction(frame); !ok {
				t.Fatal("not decoded")
			}
		}); allocs != 0 {
			t.Errorf("%s: %v allocations per decode, want 0", p, allocs)
		}
		a, _ := DecodeUsualAction(frame)
		b, _ := DecodeUsualAction(frame)
		grown := append(a.Params, "x")
		grown[0] = "changed"
		if b.Params[0] != p || len(b.Params) != 1 || a.Params[0] != p {
			t.Errorf("%s: growing one decoded list changed another: %q, %q", p, a.Params, b.Params)
		}
	}
	// Other single parameters, and lists of two, get lists of their own.
	for _, frame := range []string{
		`{"type":"action","content":{"id":7,"type":"adopt","p":["worker"]}}`,
		`{"type":"action","content":{"id":7,"type":"clear","p":["1","-2"]}}`,
		`{"type":"action","content":{"id":7,"type":"move","p":["n","e"]}}`,
	} {
		a, ok := DecodeUsualAction([]byte(frame))
		b, _ := DecodeUsualAction([]byte(frame))
		if !ok || len(a.Params) == 0 {
			t.Fatalf("%s: not decoded (%v) or no parameters", frame, ok)
		}
		a.Params[0] = "changed"
		if b.Params[0] == "changed" {
			t.Errorf("%s: two decodes share a list that is not one of the constant ones", frame)
		}
	}
}
