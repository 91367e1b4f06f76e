package protocol

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The hand-rolled encoders must produce exactly what encoding/json (without
// HTML escaping) produces for the same value once nil arrays are replaced by
// empty ones and events are reduced to their form. Randomised values, fixed seed.

func TestHandRolledEncodingMatchesEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(2022, 17))
	for i := range 2000 {
		// Odd rounds use valid UTF-8 only: invalid bytes come back as U+FFFD,
		// so only those values can be compared after decoding.
		validUTF8 := i%2 == 1
		ra := randomRequestAction(rng, validUTF8)
		want := referenceEncoding(t, TypeRequestAction, normalisedRequestAction(ra))
		got := AppendRequestAction(nil, &ra)
		require.Equal(t, string(want), string(got), "request-action #%d", i)

		decoded, err := Decode(got)
		require.NoError(t, err)
		if validUTF8 {
			assert.Equal(t, normalisedRequestAction(ra), decoded, "request-action #%d decodes to its normalised value", i)
		}
	}
}

func TestOtherMessagesMatchEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 500 {
		roles := randomSlice(rng, 3, func() RoleInfo {
			return RoleInfo{
				Name: randomString(rng, false), Vision: rng.IntN(10),
				Actions: randomSlice(rng, 5, func() string { return randomString(rng, false) }),
				Speed:   randomSlice(rng, 3, func() int { return rng.IntN(5) }),
				Clear:   ClearInfo{Chance: randomFloat(rng), MaxDistance: rng.IntN(5)},
			}
		})
		msgs := []Message{
			AuthRequest{User: randomString(rng, false), Password: randomString(rng, false)},
			AuthResponse{Result: randomString(rng, false)},
			StatusResponse{Time: rng.Int64(), Teams: randomSlice(rng, 4, func() string { return randomString(rng, false) }),
				TeamSizes: randomSlice(rng, 4, rng.Int), CurrentSimulation: rng.IntN(5) - 1},
			SimStart{Time: rng.Int64(), Percept: InitialPercept{Name: randomString(rng, false), Team: randomString(rng, false),
				TeamSize: rng.IntN(50), Steps: rng.IntN(1000), Roles: roles}},
			Action{ID: rng.Int64() - math.MaxInt64/2, Type: randomString(rng, false),
				Params: randomSlice(rng, 4, func() string { return randomString(rng, false) })},
			SimEnd{Time: rng.Int64(), Score: rng.Int64N(1000), Ranking: rng.IntN(3)},
		}
		for _, m := range msgs {
			got, err := Marshal(m)
			require.NoError(t, err)
			want := referenceEncoding(t, m.MessageType(), normalisedMessage(m))
			require.Equal(t, string(want), string(got))
		}
	}
}

// referenceEncoding is what encoding/json makes of the envelope.
func referenceEncoding(t *testing.T, typ string, content any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(struct {
		Type    string `json:"type"`
		Content any    `json:"content"`
	}{typ, content}))
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// normalisedMessage copies m with nil arrays replaced by empty ones.
func normalisedMessage(m Message) Message {
	switch m := m.(type) {
	case StatusResponse:
		m.Teams, m.TeamSizes = emptyIfNil(m.Teams), emptyIfNil(m.TeamSizes)
		return m
	case SimStart:
		roles := make([]RoleInfo, len(m.Percept.Roles))
		for i, r := range m.Percept.Roles {
			r.Actions, r.Speed = emptyIfNil(r.Actions), emptyIfNil(r.Speed)
			roles[i] = r
		}
		m.Percept.Roles = roles
		return m
	case Action:
		m.Params = emptyIfNil(m.Params)
		return m
	}
	return m
}

// normalisedRequestAction is written independently of the package's own
// normalisation (decode.go) so the two check each other.
func normalisedRequestAction(ra RequestAction) RequestAction {
	p := &ra.Percept
	p.LastActionParams = emptyIfNil(p.LastActionParams)
	p.Things = emptyIfNil(p.Things)
	p.Attached = emptyIfNil(p.Attached)
	p.GoalZones = emptyIfNil(p.GoalZones)
	p.RoleZones = emptyIfNil(p.RoleZones)
	events := make([]Event, len(p.Events))
	zero := func(v *int) *int {
		if v == nil {
			return new(int)
		}
		return v
	}
	for i, e := range p.Events {
		switch {
		case e.Type == EventHit:
			origin := Pos{}
			if e.Origin != nil {
				origin = *e.Origin
			}
			e = Event{Type: e.Type, Origin: &origin, Damage: zero(e.Damage)}
		case e.Type == EventSurveyed && e.Target == SurveyTargetAgent:
			e = Event{Type: e.Type, Target: e.Target, Name: e.Name, Role: e.Role, Energy: zero(e.Energy)}
		case e.Type == EventSurveyed:
			e = Event{Type: e.Type, Target: e.Target, Distance: zero(e.Distance)}
		}
		events[i] = e
	}
	p.Events = events
	tasks := make([]Task, len(p.Tasks))
	for i, task := range p.Tasks {
		task.Requirements = emptyIfNil(task.Requirements)
		tasks[i] = task
	}
	p.Tasks = tasks
	norms := make([]Norm, len(p.Norms))
	for i, n := range p.Norms {
		n.Requirements = emptyIfNil(n.Requirements)
		norms[i] = n
	}
	p.Norms = norms
	p.Violations = emptyIfNil(p.Violations)
	return ra
}

func emptyIfNil[T any](s []T) []T {
	if s == nil {
		return make([]T, 0)
	}
	return s
}

func randomRequestAction(rng *rand.Rand, validUTF8 bool) RequestAction {
	str := func() string { return randomString(rng, validUTF8) }
	pos := func() Pos { return Pos{rng.IntN(21) - 10, rng.IntN(21) - 10} }
	ra := RequestAction{
		ID: rng.Int64(), Time: rng.Int64(), Deadline: rng.Int64(), Step: rng.IntN(1000),
		Percept: StepPercept{
			Score: rng.Int64N(1<<40) - 1<<39, LastAction: str(), LastActionResult: str(),
			LastActionParams: randomSlice(rng, 3, str),
			Energy:           rng.IntN(200) - 50, Deactivated: rng.IntN(2) == 0, Role: str(),
			Things: randomSlice(rng, 40, func() Thing {
				p := pos()
				typ := str()
				if rng.IntN(2) == 0 { // the types the encoder writes as constants
					typ = []string{ThingEntity, ThingBlock, ThingObstacle, ThingDispenser, ThingMarker}[rng.IntN(5)]
				}
				details := str()
				if rng.IntN(3) == 0 {
					details = ""
				}
				if rng.IntN(10) == 0 { // offsets beyond two digits
					p = Pos{rng.IntN(2001) - 1000, rng.IntN(2001) - 1000}
				}
				return Thing{X: p[0], Y: p[1], Type: typ, Details: details}
			}),
			Attached:  randomSlice(rng, 5, pos),
			GoalZones: randomSlice(rng, 20, pos),
			RoleZones: randomSlice(rng, 20, pos),
			Events:    randomSlice(rng, 4, func() Event { return randomEvent(rng, validUTF8) }),
			Tasks: randomSlice(rng, 3, func() Task {
				return Task{Name: str(), Deadline: rng.IntN(500), Reward: rng.IntN(200),
					Requirements: randomSlice(rng, 4, func() TaskRequirement {
						p := pos()
						return TaskRequirement{X: p[0], Y: p[1], Type: str(), Details: str()}
					})}
			}),
			Norms: randomSlice(rng, 2, func() Norm {
				return Norm{Name: str(), Start: rng.IntN(100), Until: rng.IntN(100), Level: str(),
					Requirements: randomSlice(rng, 2, func() NormRequirement {
						return NormRequirement{Type: str(), Name: str(), Quantity: rng.IntN(10)}
					}), Punishment: rng.IntN(10)}
			}),
			Violations: randomSlice(rng, 2, str),
		},
	}
	if rng.IntN(2) == 0 {
		p := pos()
		ra.Percept.AbsolutePosition = &p
	}
	return ra
}

// randomEvent mixes well-formed events, events with stray or missing fields,
// and events of unknown types. Strings a form requires are never empty:
// encoding/json's omitempty would drop them where our encoder writes "".
func randomEvent(rng *rand.Rand, validUTF8 bool) Event {
	maybeInt := func() *int {
		if rng.IntN(3) == 0 {
			return nil
		}
		v := rng.IntN(100) - 10
		return &v
	}
	maybeString := func() string {
		if rng.IntN(3) == 0 {
			return ""
		}
		return "s" + randomString(rng, validUTF8)
	}
	e := Event{Origin: nil, Damage: maybeInt(), Distance: maybeInt(), Energy: maybeInt(),
		Name: maybeString(), Role: maybeString(), Target: maybeString()}
	if rng.IntN(3) > 0 {
		e.Origin = &Pos{rng.IntN(9) - 4, rng.IntN(9) - 4}
	}
	switch rng.IntN(4) {
	case 0:
		e.Type = EventHit
	case 1:
		e.Type, e.Target = EventSurveyed, []string{SurveyTargetDispenser, SurveyTargetGoal, SurveyTargetRole}[rng.IntN(3)]
	case 2:
		e.Type, e.Target = EventSurveyed, SurveyTargetAgent
		e.Name, e.Role = "agent"+randomString(rng, validUTF8), "role"+randomString(rng, validUTF8)
	default:
		e.Type = "other" + randomString(rng, validUTF8)
	}
	return e
}

// randomSlice returns nil, an empty slice, or up to max elements.
func randomSlice[T any](rng *rand.Rand, max int, elem func() T) []T {
	switch rng.IntN(6) {
	case 0:
		return nil
	case 1:
		return []T{}
	}
	s := make([]T, rng.IntN(max+1))
	for i := range s {
		s[i] = elem()
	}
	return s
}

var interestingStrings = []string{
	"", "n", "agentA1", "b0", "success", "failed_path", `"`, `\`, "\x00", "\x1f", "\x7f",
	"\b\f\n\r\t", "<&>", "é", "☃", "😀", "\u2028", "\u2029", "\xff", "a\xc3", "\xed\xa0\x80", "\ufffd",
}

// randomString is either an interesting string or random bytes (often not
// UTF-8, unless validUTF8 is set).
func randomString(rng *rand.Rand, validUTF8 bool) string {
	if validUTF8 {
		s := randomString(rng, false)
		return strings.ToValidUTF8(s, "?")
	}
	if rng.IntN(2) == 0 {
		return interestingStrings[rng.IntN(len(interestingStrings))]
	}
	b := make([]byte, rng.IntN(12))
	for i := range b {
		if rng.IntN(3) == 0 {
			b[i] = byte(rng.IntN(256))
		} else {
			b[i] = byte('a' + rng.IntN(26))
		}
	}
	return string(b)
}

func randomFloat(rng *rand.Rand) float64 {
	switch rng.IntN(4) {
	case 0:
		return []float64{0, 1, 0.7, 0.3, 1e-7, 1e21, 1e20, -0.5, 5e-324, math.MaxFloat64}[rng.IntN(10)]
	case 1:
		return rng.Float64()
	default:
		return math.Float64frombits(rng.Uint64()&^(0x7ff<<52) | uint64(rng.IntN(0x7ff))<<52) // any finite
	}
}
