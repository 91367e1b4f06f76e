package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/massim-go/massim/config"
)

// runAccounts prints the credential sheet of each team of a config: the
// agent port, the account names and, only when asked, the password. An
// organiser hands each team its sheet before the contest.
func runAccounts(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("accounts", flag.ContinueOnError)
	fs.SetOutput(stderr)
	conf := fs.String("conf", "", "config file (the official MASSim JSON format)")
	only := fs.String("team", "", "print only this team's sheet")
	show := fs.Bool("show-passwords", false, "print the passwords (hidden by default: the sheet may end up on a screen or in a log)")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if *conf == "" {
		return &exitError{code: 2, err: errors.New("need -conf FILE")}
	}
	cfg, err := config.Load(*conf)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	teams := cfg.Teams
	if *only != "" {
		i := slices.IndexFunc(teams, func(t config.Team) bool { return t.Name == *only })
		if i < 0 {
			return &exitError{code: 2, err: fmt.Errorf("-team: no team %q in the config (teams: %s)", *only, strings.Join(teamNamesOf(teams), ", "))}
		}
		teams = teams[i : i+1]
	}
	for i, t := range teams {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if err := writeCredentialSheet(stdout, cfg, t, *show); err != nil {
			return err
		}
	}
	if !*show {
		fmt.Fprintln(stderr, "passwords hidden: add -show-passwords to print them")
	}
	return nil
}

// writeCredentialSheet writes one team's sheet: a heading with the port and
// the team sizes of the simulations, then one line per account.
func writeCredentialSheet(w io.Writer, cfg *config.Config, t config.Team, showPassword bool) error {
	sizes := make([]string, 0, len(cfg.Match))
	for _, n := range cfg.TeamSizes() {
		if s := strconv.Itoa(n); !slices.Contains(sizes, s) {
			sizes = append(sizes, s)
		}
	}
	fmt.Fprintf(w, "team %s: agent port %d (TCP); simulations play with %s agents, a simulation of n agents uses accounts 1 to n\n",
		t.Name, cfg.Server.Port, strings.Join(sizes, " or "))
	password := "(hidden)"
	if showPassword {
		password = t.Password
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "account\tpassword")
	for i := 1; i <= cfg.MaxTeamSize(); i++ {
		fmt.Fprintf(tw, "%s\t%s\n", t.AccountName(i), password)
	}
	return tw.Flush()
}

func teamNamesOf(teams []config.Team) []string {
	names := make([]string, len(teams))
	for i, t := range teams {
		names[i] = t.Name
	}
	return names
}
