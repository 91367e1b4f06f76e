package protocol

import (
	"encoding/json"
	"fmt"
	"testing"
)

// realisticRequestAction is a mid-game percept: vision 5 worth of things
// (about 40), a few attachments and zone cells, one hit, two tasks, one norm.
func realisticRequestAction() *RequestAction {
	things := make([]Thing, 0, 40)
	things = append(things, Thing{X: 0, Y: 0, Type: ThingEntity, Details: "A"})
	for i := 1; len(things) < 40; i++ {
		x, y := i%11-5, i/11-3
		switch i % 4 {
		case 0:
			things = append(things, Thing{X: x, Y: y, Type: ThingObstacle})
		case 1:
			things = append(things, Thing{X: x, Y: y, Type: ThingBlock, Details: fmt.Sprintf("b%d", i%3)})
		case 2:
			things = append(things, Thing{X: x, Y: y, Type: ThingEntity, Details: "B"})
		default:
			things = append(things, Thing{X: x, Y: y, Type: ThingDispenser, Details: "b1"})
		}
	}
	damage := 16
	return &RequestAction{ID: 123456, Time: 1663837031000, Deadline: 1663837035000, Step: 217,
		Percept: StepPercept{
			Score: 380, LastAction: "move", LastActionResult: "success", LastActionParams: []string{"n"},
			Energy: 97, Role: "worker", Things: things,
			Attached:  []Pos{{0, 1}, {0, 2}},
			GoalZones: []Pos{{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 3}, {2, 3}, {3, 2}, {3, 3}},
			RoleZones: []Pos{{-4, -1}, {-4, 0}, {-3, 0}},
			Events:    []Event{{Type: EventHit, Origin: &Pos{0, 3}, Damage: &damage}},
			Tasks: []Task{
				{Name: "task3", Deadline: 288, Reward: 40, Requirements: []TaskRequirement{
					{X: 0, Y: 1, Type: "b1"}, {X: 0, Y: 2, Type: "b0"}}},
				{Name: "task7", Deadline: 301, Reward: 90, Requirements: []TaskRequirement{
					{X: -1, Y: 1, Type: "b2"}, {X: 0, Y: 1, Type: "b1"}, {X: 0, Y: 2, Type: "b0"}}},
			},
			Norms: []Norm{{Name: "n1", Start: 200, Until: 250, Level: "individual",
				Requirements: []NormRequirement{{Type: "block", Name: "any", Quantity: 2}}, Punishment: 3}},
			Violations: []string{},
		}}
}

func BenchmarkAppendRequestAction(b *testing.B) {
	ra := realisticRequestAction()
	dst := AppendRequestAction(nil, ra)
	b.SetBytes(int64(len(dst)))
	b.ReportAllocs()
	for b.Loop() {
		dst = AppendRequestAction(dst[:0], ra)
	}
}

// BenchmarkRequestActionEncodingJSON is the reflection-based baseline the
// hand-rolled encoder replaces.
func BenchmarkRequestActionEncodingJSON(b *testing.B) {
	ra := realisticRequestAction()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(ra); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeAction(b *testing.B) {
	frame := []byte(`{"type":"action","content":{"id":123456,"type":"move","p":["n"]}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(frame); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeUsualAction is BenchmarkDecodeAction without the Message
// interface (the server's path for answers).
func BenchmarkDecodeUsualAction(b *testing.B) {
	frame := []byte(`{"type":"action","content":{"id":123456,"type":"move","p":["n"]}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := DecodeUsualAction(frame); !ok {
			b.Fatal("not decoded")
		}
	}
}

func BenchmarkFrameReaderSmallFrames(b *testing.B) {
	frame := []byte(`{"type":"action","content":{"id":123456,"type":"move","p":["n"]}}` + "\x00")
	stream := make([]byte, 0, len(frame)*1000)
	for range 1000 {
		stream = append(stream, frame...)
	}
	r := &repeatReader{data: stream}
	fr := NewFrameReader(r, 65536)
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fr.Next(); err != nil {
			b.Fatal(err)
		}
	}
}

// repeatReader replays data forever.
type repeatReader struct {
	data []byte
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := copy(p, r.data[r.off:])
	r.off = (r.off + n) % len(r.data)
	return n, nil
}

// With SharedLists the output is byte for byte that of AppendRequestAction:
// for percepts sharing their lists, for other lists of the same step, and
// for the same array in the next step after it changed.
func TestAppendRequestActionShared_SameBytes(t *testing.T) {
	var shared SharedLists
	ra := realisticRequestAction()
	check := func(ra *RequestAction) {
		t.Helper()
		if got, want := string(AppendRequestActionShared(nil, ra, &shared)), string(AppendRequestAction(nil, ra)); got != want {
			t.Fatalf("shared encoding differs:\n got %s\nwant %s", got, want)
		}
	}
	check(ra)
	other := *ra
	other.ID++
	other.Percept.Score = 7
	check(&other) // the same lists: from the cache
	other.Percept.Tasks = other.Percept.Tasks[:1]
	check(&other) // a shorter list on the same array
	other.Percept.Norms = nil
	check(&other)
	next := *ra
	next.Step++
	next.Percept.Tasks[0].Reward = 99 // changed in place for the next step
	check(&next)
}

// BenchmarkAppendRequestActionShared is AppendRequestAction for the second
// and later agents of a step, whose tasks and norms come from SharedLists.
func BenchmarkAppendRequestActionShared(b *testing.B) {
	ra := realisticRequestAction()
	var shared SharedLists
	dst := AppendRequestActionShared(nil, ra, &shared)
	b.SetBytes(int64(len(dst)))
	b.ReportAllocs()
	for b.Loop() {
		dst = AppendRequestActionShared(dst[:0], ra, &shared)
	}
}
