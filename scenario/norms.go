package scenario

import "strconv"

// Norm subjects (docs/rules.md, "Norms") and levels.
const (
	SubjectCarry          = "Carry"
	SubjectAdopt          = "Adopt"
	SubjectRoleIndividual = "RoleIndividual"

	levelIndividual = "individual"
	levelTeam       = "team"
)

// norm is an approved or expired norm (docs/rules.md, "Life of a norm").
type norm struct {
	name       string
	created    int
	start      int
	until      int
	level      string // individual or team
	subject    string // Carry, Adopt or RoleIndividual
	punishment int
	req        normRequirement
	role       int // Adopt and RoleIndividual: index of the regulated role
}

// normRequirement is what a norm limits.
type normRequirement struct {
	typ      string // block or role (lower case, as in percepts)
	name     string
	quantity int
}

func (n *norm) announced(step int) bool { return n.created <= step && step < n.start }
func (n *norm) active(step int) bool    { return n.start <= step && step <= n.until }
func (n *norm) approved(step int) bool  { return n.announced(step) || n.active(step) }

// violation records that an agent violated a norm in a step's regulation.
type violation struct {
	norm string
	who  string
}

// regulate is the punishment of docs/rules.md, "Punishment": every norm active now punishes its violators (those
// still active lose energy) and records all of them for this step.
func (w *World) regulate() {
	w.violations = w.violations[:0]
	for _, e := range w.entities {
		e.violations = e.violations[:0]
	}
	var violators []*entity
	for _, n := range w.norms {
		if !n.active(w.step) {
			continue
		}
		violators = w.violators(n, violators[:0])
		for _, e := range violators {
			if !e.deactivated() {
				w.loseEnergy(e, n.punishment)
			}
			w.violations = append(w.violations, violation{norm: n.name, who: e.name})
			e.violations = append(e.violations, n.name)
		}
	}
}

// violators lists, in creation order, the entities violating n now.
func (w *World) violators(n *norm, out []*entity) []*entity {
	switch n.subject {
	case SubjectCarry:
		for _, e := range w.entities {
			if len(e.t.links) > 0 && w.structureOf(e.t).size()-1 > n.req.quantity {
				out = append(out, e)
			}
		}
	case SubjectAdopt:
		counts := make([]int, len(w.teams))
		for _, e := range w.entities {
			if e.role == n.role {
				counts[e.team]++
			}
		}
		for _, e := range w.entities {
			if e.role == n.role && counts[e.team] > n.req.quantity {
				out = append(out, e)
			}
		}
	case SubjectRoleIndividual:
		for _, e := range w.entities {
			if e.role == n.role {
				out = append(out, e)
			}
		}
	}
	return out
}

// createNorm is the norm officer's step (docs/rules.md, "Creating norms").
func (w *World) createNorm() {
	reg := w.p.Regulation
	if len(reg.Subjects) == 0 {
		return // no officer without subjects
	}
	approved := 0
	for _, n := range w.norms {
		if n.approved(w.step) {
			approved++
		}
	}
	if approved >= reg.Simultaneous || w.rng.Float() > reg.Chance/100 {
		return
	}
	total := 0.0
	for _, s := range reg.Subjects {
		total += s.Weight
	}
	p := w.rng.Float() * total
	subject := reg.Subjects[len(reg.Subjects)-1] // only reachable through rounding
	sum := 0.0
	for _, s := range reg.Subjects {
		sum += s.Weight
		if sum >= p {
			subject = s
			break
		}
	}
	duration := w.rng.Between(subject.Duration)
	announce := w.rng.Between(subject.Announcement)
	punishment := w.rng.Between(subject.Punishment)
	w.normsMade++
	n := &norm{
		name:       "n" + strconv.Itoa(w.normsMade),
		created:    w.step,
		start:      w.step + announce,
		until:      w.step + announce + duration,
		subject:    subject.Name,
		punishment: punishment,
	}
	switch subject.Name {
	case SubjectCarry:
		w.setUpCarry(n, subject)
	case SubjectAdopt:
		w.setUpAdopt(n, subject)
	case SubjectRoleIndividual:
		w.setUpRoleIndividual(n)
	}
	w.norms = append(w.norms, n)
}

// setUpCarry sets up a Carry norm (docs/rules.md, "Carry"): at most limit things besides the entity itself.
func (w *World) setUpCarry(n *norm, s NormSubject) {
	q := Bounds{max(0, s.Quantity.Min), s.Quantity.Max}
	if q.Min > q.Max {
		q = Bounds{0, 4}
	}
	n.level = levelIndividual
	n.req = normRequirement{typ: "block", name: "any", quantity: w.rng.Between(q)}
}

// setUpAdopt sets up an Adopt norm (docs/rules.md, "Adopt"): a role in use, chosen in proportion to how many
// entities hold it, limited per team to a share of the larger team's count.
func (w *World) setUpAdopt(n *norm, s NormSubject) {
	counts := make([][]int, len(w.roles)) // role → team → entities
	total := 0
	for i := range counts {
		counts[i] = make([]int, len(w.teams))
	}
	for _, e := range w.entities {
		counts[e.role][e.team]++
		total++
	}
	p := w.rng.Int(total)
	role, sum := 0, 0
	for i, byTeam := range counts {
		for _, c := range byTeam {
			sum += c
		}
		if sum > p {
			role = i
			break
		}
	}
	most := 0
	for _, c := range counts[role] {
		most = max(most, c)
	}
	playing := max(0, s.Playing)
	n.level = levelTeam
	n.role = role
	n.req = normRequirement{typ: "role", name: w.roles[role].Name, quantity: (most*playing + 99) / 100}
}

// setUpRoleIndividual sets up a RoleIndividual norm (docs/rules.md,
// "RoleIndividual"): nobody may hold a uniformly chosen role.
func (w *World) setUpRoleIndividual(n *norm) {
	n.role = w.rng.Int(len(w.roles))
	n.level = levelIndividual
	n.req = normRequirement{typ: "role", name: w.roles[n.role].Name, quantity: 1}
}
