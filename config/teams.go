package config

import "fmt"

// readTeams reads the "teams" block in file order (docs/config.md, "Teams and accounts": team order
// decides pairings and the order of teams in a match).
func readTeams(r *report, root *object, res resolver) ([]Team, bool) {
	block, ok := root.child("teams")
	if !ok {
		return nil, false
	}
	mark := r.mark()
	if len(block.n.members) == 0 {
		r.fail(block.file(), "teams", "must name at least one team")
	}
	teams := make([]Team, 0, len(block.n.members))
	for _, m := range block.n.members {
		path := block.keyPath(m.key)
		if m.key == "" {
			r.fail(m.value.file, path, "a team name must not be empty")
			continue
		}
		entry, ok := block.child(m.key)
		if !ok {
			continue
		}
		prefix, okPrefix := entry.string("prefix")
		password, okPassword := entry.string("password")
		team := Team{Name: m.key, Prefix: prefix, Password: password}
		readTeamCommand(r, entry, &team, res)
		entry.finish()
		if okPrefix && okPassword {
			teams = append(teams, team)
		}
	}
	return teams, r.okSince(mark)
}

// checkTeamsPerMatch: round-robin and random draw teamsPerMatch teams from
// the list, so there must be enough (the Java server exits otherwise).
func checkTeamsPerMatch(r *report, root *object, s Server, teams []Team) {
	if s.TournamentMode == ModeManual || s.TeamsPerMatch <= len(teams) {
		return
	}
	file := root.file()
	if n := root.opt("server").get("teamsPerMatch"); n != nil {
		file = n.file
	}
	r.fail(file, "server.teamsPerMatch", "%d teams per match but only %d teams in \"teams\"", s.TeamsPerMatch, len(teams))
}

// checkAccountClashes fails when two teams produce the same account name
// (the Java server lets the later team own it silently; we refuse it,
// docs/config.md, "Teams and accounts").
// Accounts are prefix+team+i: "agentA" with i=11 and "agentA1" with i=1
// collide. Two stems s < t (t longer) collide exactly when t = s + r with r
// digits not starting with '0' and s's account r+"1" exists, i.e.
// int(r+"1") <= maxTeamSize; comparing stems avoids listing all accounts.
func checkAccountClashes(r *report, root *object, teams []Team, maxTeamSize int) {
	if maxTeamSize < 1 {
		return
	}
	block := root.opt("teams")
	for j := 1; j < len(teams); j++ {
		for i := 0; i < j; i++ {
			if user, clash := accountClash(teams[i], teams[j], maxTeamSize); clash {
				path := keyPath("teams", teams[j].Name)
				r.fail(block.get(teams[j].Name).file, path,
					"account %q is also an account of team %q", user, teams[i].Name)
				break
			}
		}
	}
}

// AccountClash returns the first account name that teams a and b share
// when teams have up to maxTeamSize agents (a config refuses such teams;
// docs/config.md, "Teams and accounts"). The ladder checks its own house
// team against the registered ones with it.
func AccountClash(a, b Team, maxTeamSize int) (string, bool) { return accountClash(a, b, maxTeamSize) }

// accountClash returns the first account name that teams a and b share.
func accountClash(a, b Team, maxTeamSize int) (string, bool) {
	short, long := a.Prefix+a.Name, b.Prefix+b.Name
	if len(short) > len(long) {
		short, long = long, short
	}
	if short == long {
		return long + "1", true
	}
	if len(long) <= len(short) || long[:len(short)] != short {
		return "", false
	}
	rest := long[len(short):]
	if rest[0] == '0' || len(rest) > 9 {
		return "", false
	}
	index := 0
	for _, c := range rest {
		if c < '0' || c > '9' {
			return "", false
		}
		index = index*10 + int(c-'0')
	}
	if index*10+1 > maxTeamSize {
		return "", false
	}
	return long + "1", true
}

// readManualMode reads "manual-mode", which only manual mode uses (the
// official samples carry it in round-robin mode with an unknown team "C").
// Every entry must name exactly teamsPerMatch distinct known teams: the Java
// server silently drops unusable entries, we refuse them (docs/config.md,
// "manual-mode").
func readManualMode(r *report, root *object, s Server, teams []Team) [][]string {
	n := root.opt("manual-mode")
	if s.TournamentMode != ModeManual {
		return nil
	}
	if n == nil {
		r.fail(root.file(), "manual-mode", "is required when tournamentMode is %q", ModeManual)
		return nil
	}
	entries, ok := r.arrayValue(n, "manual-mode")
	if !ok {
		return nil
	}
	if len(entries) == 0 {
		r.fail(n.file, "manual-mode", "must list at least one match")
		return nil
	}
	known := map[string]bool{}
	for _, t := range teams {
		known[t.Name] = true
	}
	matches := make([][]string, 0, len(entries))
	for i, entry := range entries {
		path := indexPath("manual-mode", i)
		names, ok := manualEntry(r, entry, path, s.TeamsPerMatch, known)
		if ok {
			matches = append(matches, names)
		}
	}
	return matches
}

func manualEntry(r *report, entry *node, path string, teamsPerMatch int, known map[string]bool) ([]string, bool) {
	elems, ok := r.arrayValue(entry, path)
	if !ok {
		return nil, false
	}
	if len(elems) != teamsPerMatch {
		r.fail(entry.file, path, "must name exactly %d teams (teamsPerMatch), not %d", teamsPerMatch, len(elems))
		return nil, false
	}
	names := make([]string, len(elems))
	seen := map[string]bool{}
	for i, el := range elems {
		name, ok := r.stringValue(el, indexPath(path, i))
		if !ok {
			return nil, false
		}
		switch {
		case !known[name]:
			r.fail(entry.file, path, "unknown team %q", name)
			return nil, false
		case seen[name]:
			r.fail(entry.file, path, "team %q named twice", name)
			return nil, false
		}
		seen[name] = true
		names[i] = name
	}
	return names, true
}

// AccountName is the user name of the team's agent number i (1-based):
// prefix + team name + i, e.g. agentA1.
func (t Team) AccountName(i int) string {
	return fmt.Sprintf("%s%s%d", t.Prefix, t.Name, i)
}
