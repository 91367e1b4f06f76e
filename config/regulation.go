package config

import "math"

// Norm subject names (docs/rules.md, "Norms"); only the Java server has RoleIndividual.
const (
	NormCarry          = "Carry"
	NormAdopt          = "Adopt"
	NormRoleIndividual = "RoleIndividual"
)

// carryFallback is Carry's quantity when optional.quantity is missing or
// unusable (docs/rules.md, "Carry").
var carryFallback = Bounds{Min: 0, Max: 4}

// readRegulation reads match[i].regulation.
func readRegulation(r *report, reg *object) layer {
	l := layer{}
	set := into{reg, l}
	set.int("simultaneous", atLeast(0))
	set.number("chance", percent)
	if n, ok := reg.req("subjects"); ok {
		path := reg.keyPath("subjects")
		if elems, ok := r.arrayValue(n, path); ok {
			subjects, good := make([]NormSubject, 0, len(elems)), true
			for i, el := range elems {
				s, ok := readSubject(r, el, indexPath(path, i), n.file)
				good = good && ok
				subjects = append(subjects, s)
			}
			if good {
				l["subjects"] = subjects
			}
		}
	}
	reg.finish()
	return l
}

// readSubject reads one norm template.
func readSubject(r *report, n *node, path, parentFile string) (NormSubject, bool) {
	o, ok := r.object(n, path, parentFile)
	if !ok {
		return NormSubject{}, false
	}
	mark := r.mark()
	l := layer{"quantity": Bounds{}, "playing": 0} // the defaults for other subjects
	set := into{o, l}
	name, _ := o.string("name")
	l["name"] = name
	switch name {
	case NormCarry, NormAdopt, NormRoleIndividual:
	default:
		if n := o.opt("name"); n != nil && n.kind == kindString {
			r.fail(n.file, o.keyPath("name"), "unknown norm %q (must be %s, %s or %s)",
				name, NormCarry, NormAdopt, NormRoleIndividual)
		}
	}
	set.bounds("announcement", atLeast(0))
	set.bounds("duration", atLeast(0))
	set.bounds("punishment", atLeast(0))
	set.number("weight", nonNegative)
	var optional *object
	if n := o.opt("optional"); n != nil {
		optional, _ = r.object(n, o.keyPath("optional"), o.file())
	}
	switch name {
	case NormCarry:
		l["quantity"] = carryQuantity(r, o, optional)
	case NormAdopt:
		if playing, ok := adoptPlaying(r, o, optional); ok {
			l["playing"] = playing
		}
	}
	if optional != nil {
		optional.finish()
	}
	o.finish()
	if !r.okSince(mark) {
		return NormSubject{}, false
	}
	var s NormSubject
	if err := assemble(&s, l); err != nil {
		r.errs = append(r.errs, err)
		return NormSubject{}, false
	}
	return s, true
}

// carryQuantity reads Carry's optional.quantity like the Java server: min is clamped at
// 0; a missing or unusable pair, or min > max, falls back to [0, 4] with a
// warning rather than an error.
func carryQuantity(r *report, o, optional *object) Bounds {
	file, path := o.file(), keyPath(o.keyPath("optional"), "quantity")
	var q *node
	if optional != nil {
		q = optional.opt("quantity")
	}
	if q == nil {
		r.warn(file, path, "missing, using [0, 4]")
		return carryFallback
	}
	pair, ok := integerPair(q)
	if !ok || pair[1] > math.MaxInt32 {
		r.warn(q.file, path, "not [min, max], using [0, 4]")
		return carryFallback
	}
	lo, hi := max(0, pair[0]), pair[1]
	if lo > hi {
		r.warn(q.file, path, "min > max, using [0, 4]")
		return carryFallback
	}
	return Bounds{Min: int(lo), Max: int(hi)}
}

// adoptPlaying reads Adopt's optional.playing: missing means 100 (the Java server, with
// a warning); otherwise a percentage.
func adoptPlaying(r *report, o, optional *object) (int, bool) {
	path := keyPath(o.keyPath("optional"), "playing")
	var p *node
	if optional != nil {
		p = optional.opt("playing")
	}
	if p == nil {
		r.warn(o.file(), path, "missing, using 100")
		return 100, true
	}
	return r.intValue(p, path, between(0, 100))
}
