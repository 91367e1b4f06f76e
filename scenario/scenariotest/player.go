package scenariotest

import (
	"math/rand/v2"
	"strconv"

	"github.com/massim-go/massim/protocol"
)

// Player chooses one agent's actions at random, biased towards actions that
// can succeed in the situation the percept shows (requesting at an adjacent
// dispenser, attaching an adjacent block, submitting in a goal zone …), with
// a share of actions that must fail (unknown names, bad parameters).
type Player struct {
	rng       *rand.Rand
	name      string
	teammates []string
	roles     []protocol.RoleInfo // the first is the default role
}

// NewPlayer makes a player for agent name; teammates and roles (as in the
// initial percept) supply parameters for connect and adopt. The same seed
// and percepts give the same actions.
func NewPlayer(seed uint64, name string, teammates []string, roles []protocol.RoleInfo) *Player {
	return &Player{rng: rand.New(rand.NewPCG(seed, 0x5eed)), name: name, teammates: teammates, roles: roles}
}

// may reports whether the current role permits an action; now and then it
// claims so anyway, to provoke failed_role.
func (p *Player) may(pc *protocol.StepPercept, action string) bool {
	if p.rng.IntN(20) == 0 {
		return true
	}
	for _, r := range p.roles {
		if r.Name == pc.Role {
			for _, a := range r.Actions {
				if a == action {
					return true
				}
			}
		}
	}
	return false
}

var dirs = []string{"n", "s", "e", "w"}

var offsets = map[string][2]int{"n": {0, -1}, "s": {0, 1}, "e": {1, 0}, "w": {-1, 0}}

// Act returns the action name and parameters for a step.
func (p *Player) Act(pc *protocol.StepPercept) (string, []string) {
	r := p.rng.IntN(100)
	switch {
	case r < 4:
		return p.malformed()
	case r < 8:
		return p.rare(pc)
	}
	inGoal, inRole := hasPos(pc.GoalZones, 0, 0), hasPos(pc.RoleZones, 0, 0)
	if inRole && (pc.Role == p.roles[0].Name || p.rng.IntN(8) == 0) {
		return "adopt", []string{p.roles[p.rng.IntN(len(p.roles))].Name}
	}
	if pc.Role == p.roles[0].Name && !inRole && len(pc.RoleZones) > 0 && p.rng.IntN(2) == 0 {
		z := pc.RoleZones[p.rng.IntN(len(pc.RoleZones))]
		return "move", []string{towards(z[0], z[1])}
	}
	if len(pc.Attached) > 0 && inGoal && len(pc.Tasks) > 0 && p.may(pc, "submit") {
		return "submit", []string{p.taskFor(pc)}
	}
	if d, ok := p.adjacent(pc, protocol.ThingDispenser); ok && !occupied(pc, d) && len(pc.Attached) < 3 && p.may(pc, "request") {
		return "request", []string{d}
	}
	if d, ok := p.adjacent(pc, protocol.ThingBlock); ok && p.may(pc, "attach") {
		return "attach", []string{d}
	}
	if len(pc.Attached) == 0 && p.may(pc, "request") && p.rng.IntN(3) > 0 {
		if x, y, ok := p.nearest(pc, protocol.ThingDispenser); ok && abs(x)+abs(y) > 1 {
			return "move", []string{towards(x, y)}
		}
	}
	if len(pc.Attached) > 0 && !inGoal && len(pc.GoalZones) > 0 && p.rng.IntN(3) > 0 {
		g := pc.GoalZones[p.rng.IntN(len(pc.GoalZones))]
		return "move", []string{towards(g[0], g[1])}
	}
	if len(pc.Attached) > 0 && p.rng.IntN(6) == 0 {
		return "rotate", []string{[]string{"cw", "ccw"}[p.rng.IntN(2)]}
	}
	n := 1 + p.rng.IntN(3)
	params := make([]string, n)
	for i := range params {
		params[i] = dirs[p.rng.IntN(4)]
	}
	return "move", params
}

// rare picks one of the actions that seldom fit: detach, disconnect,
// connect, clear, survey, skip.
func (p *Player) rare(pc *protocol.StepPercept) (string, []string) {
	switch p.rng.IntN(6) {
	case 0:
		return "detach", []string{dirs[p.rng.IntN(4)]}
	case 1:
		a, b := p.attachedOrSelf(pc), p.attachedOrSelf(pc)
		return "disconnect", []string{itoa(a[0]), itoa(a[1]), itoa(b[0]), itoa(b[1])}
	case 2:
		if len(p.teammates) == 0 {
			return "skip", nil
		}
		a := p.attachedOrSelf(pc)
		return "connect", []string{p.teammates[p.rng.IntN(len(p.teammates))], itoa(a[0]), itoa(a[1])}
	case 3:
		return "clear", []string{itoa(p.rng.IntN(5) - 2), itoa(p.rng.IntN(5) - 2)}
	case 4:
		if p.rng.IntN(2) == 0 {
			return "survey", []string{[]string{"dispenser", "goal", "role"}[p.rng.IntN(3)]}
		}
		th := pc.Things[p.rng.IntN(len(pc.Things))]
		return "survey", []string{itoa(th.X), itoa(th.Y)}
	}
	return "skip", nil
}

// malformed returns an action that must fail on its name or parameters.
func (p *Player) malformed() (string, []string) {
	bad := [][]string{
		{"fly", "n"}, {"move", "up"}, {"move"}, {"attach"}, {"rotate", "left"}, {"clear", "1.5", "0"},
		{"connect", "nobody", "0", "1"}, {"submit", "no-such-task"}, {"survey", "1", "2", "3"},
		{"adopt", "wizard"}, {"request", ""}, {"disconnect", "0", "1"}, {"", ""},
	}
	b := bad[p.rng.IntN(len(bad))]
	return b[0], b[1:]
}

// taskFor prefers a task whose requirements all lie on attached cells.
func (p *Player) taskFor(pc *protocol.StepPercept) string {
	for _, t := range pc.Tasks {
		fits := p.rng.IntN(10) > 0 // sometimes the wrong task, to fail

		for _, r := range t.Requirements {
			fits = fits && hasPos(pc.Attached, r.X, r.Y)
		}
		if fits {
			return t.Name
		}
	}
	return pc.Tasks[p.rng.IntN(len(pc.Tasks))].Name
}

func (p *Player) adjacent(pc *protocol.StepPercept, typ string) (string, bool) {
	start := p.rng.IntN(4)
	for i := range 4 {
		d := dirs[(start+i)%4]
		o := offsets[d]
		for _, th := range pc.Things {
			if th.Type == typ && th.X == o[0] && th.Y == o[1] {
				if typ == protocol.ThingBlock && hasPos(pc.Attached, o[0], o[1]) {
					continue
				}
				return d, true
			}
		}
	}
	return "", false
}

// nearest is the closest perceived thing of a type (the first of equals).
func (p *Player) nearest(pc *protocol.StepPercept, typ string) (x, y int, ok bool) {
	best := -1
	for _, th := range pc.Things {
		if d := abs(th.X) + abs(th.Y); th.Type == typ && (best < 0 || d < best) {
			best, x, y = d, th.X, th.Y
		}
	}
	return x, y, best >= 0
}

func (p *Player) attachedOrSelf(pc *protocol.StepPercept) protocol.Pos {
	if len(pc.Attached) == 0 || p.rng.IntN(4) == 0 {
		return protocol.Pos{0, 0}
	}
	return pc.Attached[p.rng.IntN(len(pc.Attached))]
}

func occupied(pc *protocol.StepPercept, d string) bool {
	o := offsets[d]
	for _, th := range pc.Things {
		if th.X == o[0] && th.Y == o[1] && (th.Type == protocol.ThingBlock || th.Type == protocol.ThingEntity || th.Type == protocol.ThingObstacle) {
			return true
		}
	}
	return false
}

func towards(x, y int) string {
	switch {
	case abs(x) >= abs(y) && x > 0:
		return "e"
	case abs(x) >= abs(y) && x < 0:
		return "w"
	case y > 0:
		return "s"
	}
	return "n"
}

func hasPos(ps []protocol.Pos, x, y int) bool {
	for _, p := range ps {
		if p[0] == x && p[1] == y {
			return true
		}
	}
	return false
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

func itoa(i int) string { return strconv.Itoa(i) }
