package config

// Account is one agent login of the server.
type Account struct {
	User     string // Team.AccountName(Index), e.g. agentA1
	Password string // the team's password
	Team     string
	Index    int // 1 … MaxTeamSize
}

// Accounts lists every account of the server run (docs/config.md, "Teams and accounts"): for each
// team in file order, indices 1 … MaxTeamSize. All exist for the whole run;
// a simulation with n agents per team uses indices 1 … n.
func (c *Config) Accounts() []Account {
	size := c.MaxTeamSize()
	accounts := make([]Account, 0, len(c.Teams)*size)
	for _, t := range c.Teams {
		for i := 1; i <= size; i++ {
			accounts = append(accounts, Account{User: t.AccountName(i), Password: t.Password, Team: t.Name, Index: i})
		}
	}
	return accounts
}
