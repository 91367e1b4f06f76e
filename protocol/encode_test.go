package protocol

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMarshalEachMessageType(t *testing.T) {
	damage, distance, energy := 16, 7, 42
	tests := []struct {
		name string
		msg  Message
		want string
	}{
		{"auth-request", AuthRequest{User: "agentA1", Password: "1"},
			`{"type":"auth-request","content":{"user":"agentA1","pw":"1"}}`},
		{"auth-response", AuthResponse{Result: AuthFail},
			`{"type":"auth-response","content":{"result":"fail"}}`},
		{"status-request", StatusRequest{}, `{"type":"status-request","content":{}}`},
		{"status-response", StatusResponse{Time: 5, Teams: []string{"A", "B"}, TeamSizes: []int{20, 40}},
			`{"type":"status-response","content":{"time":5,"teams":["A","B"],"teamSizes":[20,40],"currentSimulation":0}}`},
		{"status-response with nil arrays", StatusResponse{Time: 5, CurrentSimulation: -1},
			`{"type":"status-response","content":{"time":5,"teams":[],"teamSizes":[],"currentSimulation":-1}}`},
		{"sim-start", SimStart{Time: 9, Percept: InitialPercept{Name: "agentA1", Team: "A", TeamSize: 20, Steps: 400,
			Roles: []RoleInfo{
				{Name: "default", Vision: 5, Actions: []string{"skip", "move"}, Speed: []int{1}, Clear: ClearInfo{Chance: 0.7, MaxDistance: 1}},
				{Name: "digger", Vision: 5, Clear: ClearInfo{Chance: 1, MaxDistance: 5}},
			}}},
			`{"type":"sim-start","content":{"time":9,"percept":{"name":"agentA1","team":"A","teamSize":20,"steps":400,"roles":[
			  {"name":"default","vision":5,"actions":["skip","move"],"speed":[1],"clear":{"chance":0.7,"maxDistance":1}},
			  {"name":"digger","vision":5,"actions":[],"speed":[],"clear":{"chance":1,"maxDistance":5}}]}}}`},
		{"sim-start without roles", SimStart{},
			`{"type":"sim-start","content":{"time":0,"percept":{"name":"","team":"","teamSize":0,"steps":0,"roles":[]}}}`},
		{"request-action, zero percept has every key", RequestAction{ID: 1, Time: 2, Deadline: 3, Step: 0},
			`{"type":"request-action","content":{"id":1,"time":2,"deadline":3,"step":0,"percept":{
			  "score":0,"lastAction":"","lastActionResult":"","lastActionParams":[],"energy":0,"deactivated":false,"role":"",
			  "things":[],"attached":[],"goalZones":[],"roleZones":[],"events":[],"tasks":[],"norms":[],"violations":[]}}}`},
		{"request-action, full percept", &RequestAction{ID: 17, Time: 100, Deadline: 104, Step: 17, Percept: StepPercept{
			Score: 40, LastAction: "move", LastActionResult: "success", LastActionParams: []string{"n"},
			Energy: 97, Deactivated: true, Role: "worker",
			Things:   []Thing{{0, 0, ThingEntity, "A"}, {-3, 2, ThingObstacle, ""}},
			Attached: []Pos{{0, 1}}, GoalZones: []Pos{{1, 1}}, RoleZones: []Pos{{-1, -2}},
			Events: []Event{
				{Type: EventHit, Origin: &Pos{0, 3}, Damage: &damage},
				{Type: EventSurveyed, Target: SurveyTargetGoal, Distance: &distance},
				{Type: EventSurveyed, Target: SurveyTargetAgent, Name: "agentB1", Role: "r", Energy: &energy},
			},
			Tasks: []Task{{Name: "task3", Deadline: 188, Reward: 40, Requirements: []TaskRequirement{{0, 1, "b1", ""}}},
				{Name: "task4", Deadline: 189, Reward: 10}},
			Norms: []Norm{{Name: "n1", Start: 30, Until: 50, Level: "team",
				Requirements: []NormRequirement{{"role", "default", 10}}, Punishment: 3}},
			Violations:       []string{"n1"},
			AbsolutePosition: &Pos{12, 30},
		}},
			`{"type":"request-action","content":{"id":17,"time":100,"deadline":104,"step":17,"percept":{
			  "score":40,"lastAction":"move","lastActionResult":"success","lastActionParams":["n"],"energy":97,"deactivated":true,"role":"worker",
			  "things":[{"x":0,"y":0,"type":"entity","details":"A"},{"x":-3,"y":2,"type":"obstacle","details":""}],
			  "attached":[[0,1]],"goalZones":[[1,1]],"roleZones":[[-1,-2]],
			  "events":[{"type":"hit","origin":[0,3],"damage":16},{"type":"surveyed","target":"goal","distance":7},
			            {"type":"surveyed","target":"agent","name":"agentB1","role":"r","energy":42}],
			  "tasks":[{"name":"task3","deadline":188,"reward":40,"requirements":[{"x":0,"y":1,"type":"b1","details":""}]},
			           {"name":"task4","deadline":189,"reward":10,"requirements":[]}],
			  "norms":[{"name":"n1","start":30,"until":50,"level":"team","requirements":[{"type":"role","name":"default","quantity":10}],"punishment":3}],
			  "violations":["n1"],"absolutePosition":[12,30]}}}`},
		{"action", Action{ID: 17, Type: "move", Params: []string{"n"}},
			`{"type":"action","content":{"id":17,"type":"move","p":["n"]}}`},
		{"action with nil params", &Action{ID: NoID, Type: "skip"},
			`{"type":"action","content":{"id":-1,"type":"skip","p":[]}}`},
		{"sim-end", SimEnd{Time: 1663837425723, Score: 380, Ranking: 1},
			`{"type":"sim-end","content":{"time":1663837425723,"score":380,"ranking":1}}`},
		{"bye", Bye{}, `{"type":"bye","content":{}}`},
		{"bye pointer", &Bye{}, `{"type":"bye","content":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Marshal(tt.msg)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
			assert.True(t, json.Valid(got))
			var compact bytes.Buffer
			require.NoError(t, json.Compact(&compact, got))
			assert.Equal(t, compact.String(), string(got), "output is compact")
		})
	}
}

func TestMarshalEventsOnlyWithTheKeysOfTheirForm(t *testing.T) {
	five := 5
	tests := []struct {
		name  string
		event Event
		want  string
	}{
		{"hit with unset fields gets zeros", Event{Type: EventHit}, `{"type":"hit","origin":[0,0],"damage":0}`},
		{"hit ignores survey fields", Event{Type: EventHit, Damage: &five, Target: "goal", Name: "x", Energy: &five},
			`{"type":"hit","origin":[0,0],"damage":5}`},
		{"surveyed target ignores agent fields", Event{Type: EventSurveyed, Target: "role", Name: "x", Origin: &Pos{1, 1}},
			`{"type":"surveyed","target":"role","distance":0}`},
		{"surveyed agent", Event{Type: EventSurveyed, Target: "agent", Distance: &five},
			`{"type":"surveyed","target":"agent","name":"","role":"","energy":0}`},
		{"unknown type writes what is set", Event{Type: "x", Target: "t", Energy: &five},
			`{"type":"x","target":"t","energy":5}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AppendStepPercept(nil, &StepPercept{Events: []Event{tt.event}})
			var p struct{ Events []json.RawMessage }
			require.NoError(t, json.Unmarshal(got, &p))
			require.Len(t, p.Events, 1)
			assert.Equal(t, tt.want, string(p.Events[0]))
		})
	}
}

func TestMarshalStringEscaping(t *testing.T) {
	tests := []struct{ in, want string }{
		{`plain`, `"plain"`},
		{`"quoted" \ back`, `"\"quoted\" \\ back"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f\""},
		{"<a&b>", `"<a&b>"`},
		{"é ☃ 😀", `"é ☃ 😀"`},
		{"\u2028\u2029", `"\u2028\u2029"`},
		{"a\xffb\xc3", `"a\ufffdb\ufffd"`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, string(appendString(nil, tt.in)))
		})
	}
}

func TestMarshalFloats(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0.7, "0.7"}, {1, "1"}, {0, "0"}, {0.30000000000000004, "0.30000000000000004"},
		{1e-6, "0.000001"}, {1e-7, "1e-7"}, {1e20, "100000000000000000000"}, {1e21, "1e+21"},
		{-2.5, "-2.5"}, {123456789.125, "123456789.125"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got, err := appendFloat(nil, tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			ref, err := json.Marshal(tt.in)
			require.NoError(t, err)
			assert.Equal(t, string(ref), string(got), "same as encoding/json")
		})
	}
}

func TestMarshalErrors(t *testing.T) {
	_, err := Marshal(SimStart{Percept: InitialPercept{Roles: []RoleInfo{{Name: "r", Clear: ClearInfo{Chance: math.NaN()}}}}})
	assert.ErrorIs(t, err, ErrMalformed)
	assert.EqualError(t, err, `protocol: malformed message: sim-start: role "r": clear chance: NaN is not representable in JSON`)
	_, err = Marshal(nil)
	assert.ErrorIs(t, err, ErrUnknownType)
	_, err = Marshal((*RequestAction)(nil))
	assert.ErrorIs(t, err, ErrUnknownType)
	_, err = Marshal(foreignMessage{})
	assert.ErrorIs(t, err, ErrUnknownType)
}

type foreignMessage struct{}

func (foreignMessage) MessageType() string { return "foreign" }

func TestAppendMessageAppends(t *testing.T) {
	dst := []byte("prefix")
	out, err := AppendMessage(dst, Bye{})
	require.NoError(t, err)
	assert.Equal(t, `prefix{"type":"bye","content":{}}`, string(out))
}

// Every example frame decodes, re-encodes and decodes to the same value.
func TestSpecExamplesRoundTrip(t *testing.T) {
	for _, frame := range specExamples {
		m, err := Decode([]byte(frame))
		require.NoError(t, err, frame)
		encoded, err := Marshal(m)
		require.NoError(t, err)
		again, err := Decode(encoded)
		require.NoError(t, err)
		assert.Equal(t, m, again)
	}
}
