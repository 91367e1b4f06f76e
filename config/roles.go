package config

import (
	"slices"

	"github.com/massim-go/massim/protocol"
)

// readRoles reads match[i].roles. The first role is the default role and
// must define everything; later roles inherit what they omit
// (docs/config.md, "Roles"; docs/rules.md, "Roles"): the default role's layer lies under each role's own
// layer, and actions are the union, default's first, in config order.
func readRoles(r *report, entry *object) ([]Role, bool) {
	n, ok := entry.req("roles")
	if !ok {
		return nil, false
	}
	path := entry.keyPath("roles")
	elems, ok := r.arrayValue(n, path)
	if !ok {
		return nil, false
	}
	if len(elems) == 0 {
		r.fail(n.file, path, "must list at least the default role")
		return nil, false
	}
	mark := r.mark()
	var base layer
	var baseActions []string
	names := map[string]bool{}
	roles := make([]Role, 0, len(elems))
	for i, el := range elems {
		rolePath := indexPath(path, i)
		o, ok := r.object(el, rolePath, n.file)
		if !ok {
			continue
		}
		own, actions, ok := readRole(r, o, i == 0)
		if !ok {
			continue
		}
		name := own["name"].(string)
		if names[name] {
			r.fail(o.opt("name").file, o.keyPath("name"), "duplicate role name %q", name)
			continue
		}
		names[name] = true
		if i == 0 {
			base, baseActions = own, actions
		}
		if base == nil {
			continue // the default role is broken; its errors say why
		}
		union := dedupe(append(slices.Clone(baseActions), actions...))
		var role Role
		if err := assemble(&role, base, own, layer{"actions": union}); err != nil {
			r.errs = append(r.errs, err)
			continue
		}
		roles = append(roles, role)
	}
	return roles, r.okSince(mark)
}

// readRole validates one role object into its own layer (only the keys it
// gives) and its own action list.
func readRole(r *report, o *object, isDefault bool) (layer, []string, bool) {
	mark := r.mark()
	l := layer{}
	if name, ok := o.string("name"); ok {
		if name == "" {
			r.fail(o.opt("name").file, o.keyPath("name"), "must not be empty")
		}
		l["name"] = name
	}
	member := func(key string) *node {
		if isDefault {
			n, _ := o.req(key)
			return n
		}
		return o.opt(key)
	}
	if n := member("vision"); n != nil {
		if v, ok := r.intValue(n, o.keyPath("vision"), atLeast(0)); ok {
			l["vision"] = v
		}
	}
	var actions []string
	if n := member("actions"); n != nil {
		actions = readActions(r, n, o.keyPath("actions"))
	}
	if n := member("speed"); n != nil {
		if speed, ok := r.intList(n, o.keyPath("speed"), atLeast(0)); ok {
			l["speed"] = speed
		}
	}
	if n := member("clear"); n != nil {
		if clear, ok := r.object(n, o.keyPath("clear"), o.file()); ok {
			clearMember := func(key string) *node {
				if isDefault {
					n, _ := clear.req(key)
					return n
				}
				return clear.opt(key)
			}
			if n := clearMember("chance"); n != nil {
				if v, ok := r.numberValue(n, clear.keyPath("chance"), probability); ok {
					l["clearChance"] = v
				}
			}
			if n := clearMember("maxDistance"); n != nil {
				if v, ok := r.intValue(n, clear.keyPath("maxDistance"), atLeast(0)); ok {
					l["clearMaxDistance"] = v
				}
			}
			clear.finish()
		}
	}
	o.finish()
	return l, actions, r.okSince(mark)
}

// readActions reads a list of action names, warning about unknown ones.
func readActions(r *report, n *node, path string) []string {
	elems, ok := r.arrayValue(n, path)
	if !ok {
		return nil
	}
	actions := make([]string, 0, len(elems))
	for i, el := range elems {
		name, ok := r.stringValue(el, indexPath(path, i))
		if !ok {
			continue
		}
		if !protocol.IsGameAction(name) && name != protocol.ActionNoAction {
			r.warn(el.file, indexPath(path, i), "unknown action %q", name)
		}
		actions = append(actions, name)
	}
	return actions
}

// dedupe drops repeated names, keeping the first occurrence of each.
func dedupe(names []string) []string {
	seen := map[string]bool{}
	out := names[:0]
	for _, name := range names {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}
