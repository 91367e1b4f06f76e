package codec

import (
	"slices"

	"github.com/massim-go/massim/scenario"
)

// The small sections (zones, tasks, norms, violations, scores, log events)
// are written whole whenever they change.

func putZones(s *sink, zs []scenario.ZoneSnapshot) {
	s.count(len(zs))
	for _, z := range zs {
		putPos(s, z.Pos)
		s.int(int64(z.R))
	}
}

func getZones(src *source) []scenario.ZoneSnapshot {
	n := src.count()
	out := make([]scenario.ZoneSnapshot, 0, n)
	for range n {
		out = append(out, scenario.ZoneSnapshot{Pos: getPos(src), R: src.smallInt()})
	}
	return out
}

func sameZones(a, b []scenario.ZoneSnapshot) bool {
	return sameSlices(a, b, func(x, y scenario.ZoneSnapshot) bool { return x == y })
}

func putTasks(s *sink, in *interner, ts []scenario.TaskSnapshot) {
	s.count(len(ts))
	for _, t := range ts {
		s.str(in, t.Name)
		s.int(int64(t.Deadline))
		s.int(int64(t.Reward))
		s.count(len(t.Requirements))
		for _, r := range t.Requirements {
			putPos(s, r.Pos)
			s.str(in, r.Type)
		}
	}
}

func getTasks(src *source, table []string) []scenario.TaskSnapshot {
	n := src.count()
	out := make([]scenario.TaskSnapshot, 0, n)
	for range n {
		t := scenario.TaskSnapshot{Name: src.str(table), Deadline: src.smallInt(), Reward: src.smallInt()}
		m := src.count()
		t.Requirements = make([]scenario.TaskRequirementSnapshot, 0, m)
		for range m {
			t.Requirements = append(t.Requirements, scenario.TaskRequirementSnapshot{Pos: getPos(src), Type: src.str(table)})
		}
		out = append(out, t)
	}
	return out
}

func sameTasks(a, b []scenario.TaskSnapshot) bool {
	return sameSlices(a, b, func(x, y scenario.TaskSnapshot) bool {
		return x.Name == y.Name && x.Deadline == y.Deadline && x.Reward == y.Reward && slices.Equal(x.Requirements, y.Requirements)
	})
}

func putNorms(s *sink, in *interner, ns []scenario.NormSnapshot) {
	s.count(len(ns))
	for _, n := range ns {
		s.str(in, n.Name)
		s.int(int64(n.Start))
		s.int(int64(n.Until))
		s.str(in, n.Level)
		s.int(int64(n.Punishment))
		s.count(len(n.Requirements))
		for _, r := range n.Requirements {
			s.str(in, r.Type)
			s.str(in, r.Name)
			s.int(int64(r.Quantity))
		}
	}
}

func getNorms(src *source, table []string) []scenario.NormSnapshot {
	n := src.count()
	out := make([]scenario.NormSnapshot, 0, n)
	for range n {
		x := scenario.NormSnapshot{Name: src.str(table), Start: src.smallInt(), Until: src.smallInt(),
			Level: src.str(table), Punishment: src.smallInt()}
		m := src.count()
		x.Requirements = make([]scenario.NormRequirementSnapshot, 0, m)
		for range m {
			x.Requirements = append(x.Requirements, scenario.NormRequirementSnapshot{
				Type: src.str(table), Name: src.str(table), Quantity: src.smallInt()})
		}
		out = append(out, x)
	}
	return out
}

func sameNorms(a, b []scenario.NormSnapshot) bool {
	return sameSlices(a, b, func(x, y scenario.NormSnapshot) bool {
		return x.Name == y.Name && x.Start == y.Start && x.Until == y.Until && x.Level == y.Level &&
			x.Punishment == y.Punishment && slices.Equal(x.Requirements, y.Requirements)
	})
}

func putViolations(s *sink, in *interner, vs []scenario.ViolationSnapshot) {
	s.count(len(vs))
	for _, v := range vs {
		s.str(in, v.Norm)
		s.str(in, v.Who)
	}
}

func getViolations(src *source, table []string) []scenario.ViolationSnapshot {
	n := src.count()
	out := make([]scenario.ViolationSnapshot, 0, n)
	for range n {
		out = append(out, scenario.ViolationSnapshot{Norm: src.str(table), Who: src.str(table)})
	}
	return out
}

func sameViolations(a, b []scenario.ViolationSnapshot) bool {
	return sameSlices(a, b, func(x, y scenario.ViolationSnapshot) bool { return x == y })
}

func putScores(s *sink, in *interner, ts []scenario.TeamScore) {
	s.count(len(ts))
	for _, t := range ts {
		s.str(in, t.Team)
		s.int(t.Score)
	}
}

func getScores(src *source, table []string) []scenario.TeamScore {
	n := src.count()
	out := make([]scenario.TeamScore, 0, n)
	for range n {
		out = append(out, scenario.TeamScore{Team: src.str(table), Score: src.int()})
	}
	return out
}

func sameScores(a, b []scenario.TeamScore) bool {
	return sameSlices(a, b, func(x, y scenario.TeamScore) bool { return x == y })
}

func putLogEvents(s *sink, in *interner, es []scenario.LogEvent) {
	s.count(len(es))
	for _, e := range es {
		s.str(in, e.Type)
		s.str(in, e.Task)
		s.str(in, e.Team)
	}
}

func getLogEvents(src *source, table []string) []scenario.LogEvent {
	n := src.count()
	out := make([]scenario.LogEvent, 0, n)
	for range n {
		out = append(out, scenario.LogEvent{Type: src.str(table), Task: src.str(table), Team: src.str(table)})
	}
	return out
}

func sameLogEvents(a, b []scenario.LogEvent) bool {
	return sameSlices(a, b, func(x, y scenario.LogEvent) bool { return x == y })
}
