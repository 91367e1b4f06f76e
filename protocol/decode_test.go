package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name  string
		frame string
		want  error
	}{
		{"empty frame (0x00 0x00)", "", ErrMalformed},
		{"whitespace only", " \n\t", ErrMalformed},
		{"garbage", "\x01\x02garbage", ErrMalformed},
		{"truncated JSON", `{"type":"action","content":{"id":1`, ErrMalformed},
		{"trailing data after the object", `{"type":"bye","content":{}} {}`, ErrMalformed},
		{"top level array", `[{"type":"bye","content":{}}]`, ErrMalformed},
		{"top level string", `"bye"`, ErrMalformed},
		{"top level null", `null`, ErrMalformed},
		{"single-quoted strings", `{'type':'bye','content':{}}`, ErrMalformed},
		{"unquoted keys", `{type:"bye",content:{}}`, ErrMalformed},
		{"type missing", `{"content":{}}`, ErrMalformed},
		{"type not a string", `{"type":5,"content":{}}`, ErrMalformed},
		{"type key in other case", `{"Type":"bye","content":{}}`, ErrMalformed},
		{"content missing", `{"type":"bye"}`, ErrMalformed},
		{"content null", `{"type":"action","content":null}`, ErrMalformed},
		{"content an array", `{"type":"action","content":[]}`, ErrMalformed},
		{"content a string", `{"type":"auth-request","content":"x"}`, ErrMalformed},
		{"unknown type", `{"type":"hello","content":{}}`, ErrUnknownType},
		{"type in other case", `{"type":"BYE","content":{}}`, ErrUnknownType},
		{"server message with a wrongly typed field", `{"type":"sim-end","content":{"score":"high"}}`, ErrMalformed},
		{"request-action with percept an array", `{"type":"request-action","content":{"percept":[]}}`, ErrMalformed},
		{"float in an int field", `{"type":"sim-end","content":{"ranking":1.5}}`, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Decode([]byte(tt.frame))
			assert.ErrorIs(t, err, tt.want)
			assert.Regexp(t, `^protocol: [^:]`, err.Error(), "one package prefix")
			assert.Nil(t, m)
		})
	}
}

func TestDecodeUnknownTypeErrorNamesTheType(t *testing.T) {
	_, err := Decode([]byte(`{"type":"hello","content":{}}`))
	assert.ErrorContains(t, err, `"hello"`)
}

func TestDecodeAuthRequest(t *testing.T) {
	tests := []struct {
		name  string
		frame string
		want  AuthRequest
	}{
		{"normal", `{"type":"auth-request","content":{"user":"agentA1","pw":"1"}}`, AuthRequest{"agentA1", "1"}},
		{"missing keys are empty", `{"type":"auth-request","content":{}}`, AuthRequest{}},
		{"missing pw", `{"type":"auth-request","content":{"user":"agentA1"}}`, AuthRequest{User: "agentA1"}},
		{"non-string values are empty", `{"type":"auth-request","content":{"user":1,"pw":null}}`, AuthRequest{}},
		{"keys are case-sensitive", `{"type":"auth-request","content":{"User":"a","PW":"b"}}`, AuthRequest{}},
		{"extra keys ignored", `{"type":"auth-request","content":{"user":"u","pw":"p","x":[1]},"extra":1}`, AuthRequest{"u", "p"}},
		{"escapes", `{"type":"auth-request","content":{"user":"a\u0041\n","pw":"\"\\"}}`, AuthRequest{"aA\n", `"\`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Decode([]byte(tt.frame))
			require.NoError(t, err)
			assert.Equal(t, tt.want, m)
		})
	}
}

func TestDecodeAction(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    Action
	}{
		{"normal", `{"id":17,"type":"move","p":["n"]}`, Action{17, "move", []string{"n"}}},
		{"without p", `{"id":1,"type":"skip"}`, Action{1, "skip", []string{}}},
		{"p null", `{"id":1,"type":"skip","p":null}`, Action{1, "skip", []string{}}},
		{"p an object", `{"id":1,"type":"skip","p":{"a":1}}`, Action{1, "skip", []string{}}},
		{"p a string", `{"id":1,"type":"move","p":"n"}`, Action{1, "move", []string{}}},
		{"p empty", `{"id":1,"type":"skip","p":[]}`, Action{1, "skip", []string{}}},
		{"without type", `{"id":1,"p":["n"]}`, Action{1, UnknownActionType, []string{"n"}}},
		{"type not a string", `{"id":1,"type":7}`, Action{1, UnknownActionType, []string{}}},
		{"type null", `{"id":1,"type":null}`, Action{1, UnknownActionType, []string{}}},
		{"unknown action name kept", `{"id":1,"type":"dance"}`, Action{1, "dance", []string{}}},
		{"id as decimal string", `{"id":"42","type":"skip"}`, Action{42, "skip", []string{}}},
		{"id as negative string", `{"id":"-3","type":"skip"}`, Action{-3, "skip", []string{}}},
		{"id as non-numeric string", `{"id":"4x","type":"skip"}`, Action{NoID, "skip", []string{}}},
		{"id as string with spaces", `{"id":" 4","type":"skip"}`, Action{NoID, "skip", []string{}}},
		{"id as string with fraction", `{"id":"4.0","type":"skip"}`, Action{NoID, "skip", []string{}}},
		{"id missing", `{"type":"skip"}`, Action{NoID, "skip", []string{}}},
		{"id float 1.0", `{"id":1.0,"type":"skip"}`, Action{NoID, "skip", []string{}}},
		{"id float 1.5", `{"id":1.5,"type":"skip"}`, Action{NoID, "skip", []string{}}},
		{"id exponent", `{"id":1e3,"type":"skip"}`, Action{NoID, "skip", []string{}}},
		{"id negative", `{"id":-1,"type":"skip"}`, Action{-1, "skip", []string{}}},
		{"id int64 max", `{"id":9223372036854775807}`, Action{9223372036854775807, UnknownActionType, []string{}}},
		{"id overflows int64", `{"id":9223372036854775808}`, Action{NoID, UnknownActionType, []string{}}},
		{"id null", `{"id":null,"type":"skip"}`, Action{NoID, "skip", []string{}}},
		{"id bool", `{"id":true,"type":"skip"}`, Action{NoID, "skip", []string{}}},
		{"id array", `{"id":[1],"type":"skip"}`, Action{NoID, "skip", []string{}}},
		{"keys are case-sensitive", `{"ID":1,"Type":"skip","P":["n"]}`, Action{NoID, UnknownActionType, []string{}}},
		{"unknown keys ignored", `{"id":2,"type":"move","p":["e"],"extra":{"deep":[1]}}`, Action{2, "move", []string{"e"}}},
		{"numbers keep their exact text", `{"id":3,"type":"request","p":[1,-2,1.0,1e3,0.10,-0,12345678901234567890123]}`,
			Action{3, "request", []string{"1", "-2", "1.0", "1e3", "0.10", "-0", "12345678901234567890123"}}},
		{"booleans and null", `{"id":3,"type":"x","p":[true,false,null]}`, Action{3, "x", []string{"true", "false", ""}}},
		{"nested values as compact JSON", `{"id":3,"type":"x","p":[ [1, 2 ,"a b"] , {"k" : [ ] } ]}`,
			Action{3, "x", []string{`[1,2,"a b"]`, `{"k":[]}`}}},
		{"string escapes decoded", `{"id":3,"type":"x","p":["\u00e9\t","\"q\""]}`, Action{3, "x", []string{"é\t", `"q"`}}},
		{"invalid UTF-8 in a nested value", "{\"id\":3,\"type\":\"x\",\"p\":[[\"\xff\xfe\"]]}", Action{3, "x", []string{"[\"\uFFFD\uFFFD\"]"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Decode([]byte(`{"type":"action","content":` + tt.content + `}`))
			require.NoError(t, err)
			assert.Equal(t, tt.want, m)
		})
	}
}

func TestDecodeServerMessages(t *testing.T) {
	damage, distance, energy := 16, 7, 42
	tests := []struct {
		name  string
		frame string
		want  Message
	}{
		{"auth-response", specExamples[1], AuthResponse{Result: AuthOK}},
		{"status-request with extra content", `{"type":"status-request","content":{"x":1}}`, StatusRequest{}},
		{"status-response", specExamples[4], StatusResponse{Time: 1663837025723, Teams: []string{"A", "B"}, TeamSizes: []int{20, 40}}},
		{"status-response before the first match", `{"type":"status-response","content":{"time":1,"teams":[],"teamSizes":[5],"currentSimulation":-1}}`,
			StatusResponse{Time: 1, Teams: []string{}, TeamSizes: []int{5}, CurrentSimulation: -1}},
		{"status-response with null arrays", `{"type":"status-response","content":{"teams":null}}`,
			StatusResponse{Teams: []string{}, TeamSizes: []int{}}},
		{"sim-start", specExamples[5], SimStart{Time: 1663837025730, Percept: InitialPercept{
			Name: "agentA1", Team: "A", TeamSize: 20, Steps: 400,
			Roles: []RoleInfo{{Name: "default", Vision: 5, Actions: []string{"skip", "move", "rotate", "adopt", "detach", "clear"},
				Speed: []int{1}, Clear: ClearInfo{Chance: 0.7, MaxDistance: 1}}},
		}}},
		{"sim-start with missing role arrays", `{"type":"sim-start","content":{"percept":{"roles":[{"name":"r"}]}}}`,
			SimStart{Percept: InitialPercept{Roles: []RoleInfo{{Name: "r", Actions: []string{}, Speed: []int{}}}}}},
		{"request-action with every kind of thing, event, task and norm", specExamples[7], RequestAction{ID: 18, Time: 1663837035000, Deadline: 1663837039000, Step: 18,
			Percept: StepPercept{
				Score: 40, LastAction: "move", LastActionResult: "success", LastActionParams: []string{"n"},
				Energy: 97, Role: "worker",
				Things:   []Thing{{0, 0, "entity", "A"}, {0, 1, "block", "b1"}, {2, -1, "dispenser", "b0"}, {-3, 2, "obstacle", ""}, {1, 4, "marker", "cp"}},
				Attached: []Pos{{0, 1}}, GoalZones: []Pos{{1, 1}, {1, 2}}, RoleZones: []Pos{},
				Events: []Event{{Type: "hit", Origin: &Pos{0, 3}, Damage: &damage}},
				Tasks: []Task{{Name: "task3", Deadline: 188, Reward: 40,
					Requirements: []TaskRequirement{{0, 1, "b1", ""}, {0, 2, "b0", ""}}}},
				Norms: []Norm{{Name: "n1", Start: 30, Until: 50, Level: "individual",
					Requirements: []NormRequirement{{"block", "any", 2}}, Punishment: 3}},
				Violations: []string{},
			}}},
		{"request-action with surveys and absolute position", specExamples[8], RequestAction{ID: 19, Time: 1, Deadline: 2, Step: 3,
			Percept: StepPercept{
				LastAction: "survey", LastActionResult: "success", LastActionParams: []string{"dispenser"},
				Energy: 100, Role: "explorer",
				Things: []Thing{}, Attached: []Pos{}, GoalZones: []Pos{}, RoleZones: []Pos{{0, -1}},
				Events: []Event{
					{Type: "surveyed", Target: "dispenser", Distance: &distance},
					{Type: "surveyed", Target: "agent", Name: "agentB3", Role: "worker", Energy: &energy},
				},
				Tasks: []Task{}, Norms: []Norm{}, Violations: []string{"n1"}, AbsolutePosition: &Pos{12, 30},
			}}},
		{"request-action with an empty percept gets [] everywhere", `{"type":"request-action","content":{"id":1}}`,
			RequestAction{ID: 1, Percept: StepPercept{LastActionParams: []string{}, Things: []Thing{}, Attached: []Pos{},
				GoalZones: []Pos{}, RoleZones: []Pos{}, Events: []Event{}, Tasks: []Task{}, Norms: []Norm{}, Violations: []string{}}}},
		{"sim-end", specExamples[13], SimEnd{Time: 1663837425723, Score: 380, Ranking: 1}},
		{"bye", specExamples[14], Bye{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Decode([]byte(tt.frame))
			require.NoError(t, err)
			assert.Equal(t, tt.want, m)
		})
	}
}

func TestDecodeEventsAreCanonical(t *testing.T) {
	frame := `{"type":"request-action","content":{"percept":{"events":[
		{"type":"hit"},
		{"type":"hit","origin":[1,2],"damage":3,"target":"goal","name":"x"},
		{"type":"surveyed","target":"goal","name":"x","energy":5},
		{"type":"surveyed","target":"agent","distance":4},
		{"type":"custom","target":"t","damage":2}]}}}`
	m, err := Decode([]byte(frame))
	require.NoError(t, err)
	zero, three, two := 0, 3, 2
	assert.Equal(t, []Event{
		{Type: "hit", Origin: &Pos{}, Damage: &zero},
		{Type: "hit", Origin: &Pos{1, 2}, Damage: &three},
		{Type: "surveyed", Target: "goal", Distance: &zero},
		{Type: "surveyed", Target: "agent", Energy: &zero},
		{Type: "custom", Target: "t", Damage: &two},
	}, m.(RequestAction).Percept.Events)
}
