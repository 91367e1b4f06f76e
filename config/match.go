package config

import "math"

// matchDefaults is the layer of a match entry's optional keys.
func matchDefaults() layer {
	return layer{
		"id":               "",
		"randomSeed":       int64(0),
		"hasRandomSeed":    false,
		"setup":            "",
		"absolutePosition": false,
		"grid": layer{
			"file":      "",
			"connected": false,
		},
	}
}

// readMatches reads the "match" array: one simulation per entry, in order.
func readMatches(r *report, root *object, res resolver) []Match {
	n, ok := root.req("match")
	if !ok {
		return nil
	}
	elems, ok := r.arrayValue(n, "match")
	if !ok {
		return nil
	}
	if len(elems) == 0 {
		r.fail(n.file, "match", "must list at least one simulation")
		return nil
	}
	matches := make([]Match, 0, len(elems))
	for i, el := range elems {
		if m, ok := readMatch(r, el, indexPath("match", i), n.file, res); ok {
			matches = append(matches, m)
		}
	}
	return matches
}

// readMatch reads one simulation entry (docs/config.md, "Match entries").
func readMatch(r *report, n *node, path, parentFile string, res resolver) (Match, bool) {
	o, ok := r.object(n, path, parentFile)
	if !ok {
		return Match{}, false
	}
	mark := r.mark()
	l := layer{}
	set := into{o, l}
	if n := o.opt("id"); n != nil {
		if id, ok := r.stringValue(n, o.keyPath("id")); ok {
			l["id"] = id
		}
	}
	set.int("steps", atLeast(1))
	if n := o.opt("randomSeed"); n != nil {
		if seed, ok := r.int64Value(n, o.keyPath("randomSeed")); ok {
			l["randomSeed"], l["hasRandomSeed"] = seed, true
		}
	}
	set.int("randomFail", between(0, 100))
	if size, ok := readEntities(r, o); ok {
		l["teamSize"] = size
	}
	// Cluster sizes are drawn from these bounds until every agent is placed:
	// a size of 0 would never finish (docs/rules.md, "Agent placement").
	set.bounds("clusterBounds", atLeast(1))
	if roles, ok := readRoles(r, o); ok {
		l["roles"] = roles
	}
	set.int("clearEnergyCost", atLeast(0))
	set.int("deactivatedDuration", atLeast(0))
	set.int("maxEnergy", atLeast(1))
	set.int("refreshEnergy", atLeast(0))
	set.int("stepRecharge", atLeast(0))
	set.intList("clearDamage", atLeast(0))
	set.int("attachLimit", atLeast(0))
	if g, ok := o.child("grid"); ok {
		l["grid"] = readGrid(r, g, res)
	}
	// Tasks draw their blocks from the block types: at least one must exist.
	set.bounds("blockTypes", atLeast(1))
	set.bounds("dispensers", atLeast(0))
	if t, ok := o.child("tasks"); ok {
		l["tasks"] = readTasks(t)
	}
	if e, ok := o.child("events"); ok {
		l["events"] = readEvents(e)
	}
	if reg, ok := o.child("regulation"); ok {
		l["regulation"] = readRegulation(r, reg)
	}
	if n := o.opt("setup"); n != nil {
		if p, ok := res.readPath(r, n, o.keyPath("setup")); ok {
			l["setup"] = p
		}
	}
	if n := o.opt("absolutePosition"); n != nil {
		if b, ok := r.boolValue(n, o.keyPath("absolutePosition")); ok {
			l["absolutePosition"] = b
		}
	}
	o.finish()
	if !r.okSince(mark) {
		return Match{}, false
	}
	var m Match
	if err := assemble(&m, matchDefaults(), l); err != nil {
		r.errs = append(r.errs, err)
		return Match{}, false
	}
	return m, true
}

// readEntities sums the agent counts of "entities": the Java server's object form
// {"standard": 20} or the documented array form [{"standard": 15}]. The names mean
// nothing (every agent starts in the default role); they are user-chosen,
// so they are walked on the tree and never become koanf keys.
func readEntities(r *report, o *object) (int, bool) {
	n, ok := o.req("entities")
	if !ok {
		return 0, false
	}
	path := o.keyPath("entities")
	var groups []*node
	var paths []string
	switch n.kind {
	case kindObject:
		groups, paths = []*node{n}, []string{path}
	case kindArray:
		for i, el := range n.elems {
			if el.kind != kindObject {
				r.fail(el.file, indexPath(path, i), "must be an object {name: count}, not %s", el.kind)
				return 0, false
			}
			groups, paths = append(groups, el), append(paths, indexPath(path, i))
		}
	default:
		r.fail(n.file, path, "must be an object {name: count}, not %s", n.kind)
		return 0, false
	}
	total := int64(0)
	good := true
	for g, group := range groups {
		for _, m := range group.members {
			count, ok := r.intValue(m.value, keyPath(paths[g], m.key), atLeast(0))
			good = good && ok
			total += int64(count)
		}
	}
	switch {
	case !good:
		return 0, false
	case total == 0:
		r.fail(n.file, path, "must give each team at least one agent")
		return 0, false
	case total > math.MaxInt32:
		r.fail(n.file, path, "too many agents (%d)", total)
		return 0, false
	}
	return int(total), true
}

// readTasks reads match[i].tasks.
func readTasks(t *object) layer {
	l := layer{}
	set := into{t, l}
	set.bounds("size", atLeast(0)) // a drawn size < 1 creates no task
	set.int("concurrent", atLeast(0))
	set.bounds("iterations", atLeast(0))
	set.bounds("maxDuration", atLeast(0))
	t.finish()
	return l
}

// readEvents reads match[i].events (clear events).
func readEvents(e *object) layer {
	l := layer{}
	set := into{e, l}
	set.int("chance", between(0, 100))
	set.bounds("radius", atLeast(0))
	set.int("warning", atLeast(0))
	set.bounds("create", anyInt()) // may be negative: fewer new obstacles
	set.int("perimeter", atLeast(0))
	e.finish()
	return l
}
