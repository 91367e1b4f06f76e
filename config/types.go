package config

import "time"

// Config is a whole, validated server configuration.
type Config struct {
	// Path is the root config file ("" for configs given inline); relative
	// grid.file and setup paths fall back to its directory.
	Path string
	// Files are the absolute paths of the files read from disk: the root
	// config and every include (for the sandbox of team commands, which
	// must not see them; docs/untrusted-teams.md).
	Files      []string
	Server     Server
	ManualMode [][]string // only meaningful when Server.TournamentMode == ModeManual
	Match      []Match    // one entry per simulation of a match, in order
	Teams      []Team     // in file order
	// Ladder is the "ladder" block (massim ladder); defaults when absent.
	Ladder Ladder

	// Warnings lists the leniencies of the Java server applied while loading, each as
	// "file: key path: text" (e.g. a Carry norm without quantity got [0, 4]).
	Warnings []string
	// UnknownKeys lists the ignored keys, each as "file: key path: unknown
	// key (did you mean K?)" with the nearest known key when one is close
	// (the Java server ignores unknown keys; the samples comment keys out as
	// "NOsetup"). A caller may log them as warnings or refuse the config.
	UnknownKeys []string

	res    resolver          // where grid.file and setup were found; see ReadFile
	digest []byte            // SHA-256 of the expanded config; see Checksum
	parts  map[string]string // digests of its parts; see ChecksumParts
}

// Tournament modes (docs/config.md, "Tournament modes").
const (
	ModeRoundRobin = "round-robin"
	ModeManual     = "manual"
	ModeRandom     = "random"
)

// Server is the "server" block with defaults applied (docs/config.md, "The server block").
type Server struct {
	TournamentMode string
	TeamsPerMatch  int
	Launch         string
	Port           int
	Backlog        int
	AgentTimeout   time.Duration
	ResultPath     string
	LogLevel       string
	LogPath        string // "" = no log file
	ReplayPath     string // "" = no replays
	// ReplayFormat is what replays are written as: ReplayCompact (the
	// default), ReplayOfficial or ReplayBoth (massim-go extension, key
	// "replayFormat").
	ReplayFormat           string
	MaxPacketLength        int
	WaitBetweenSimulations time.Duration
	// AdminToken protects the HTTP admin API (massim-go extension, key
	// "adminToken"); "" leaves the API off unless MASSIM_ADMIN_TOKEN is set.
	// A secret: never log it.
	AdminToken string
	// FrontDeskTimeout is how long a new connection may take to
	// authenticate (key "frontDeskTimeout", milliseconds; massim-go
	// extension). A connection that started with status-request is closed
	// after this long without one.
	FrontDeskTimeout time.Duration
	// SilenceTimeout closes an agent connection that has sent nothing for
	// this long while it was sent request-actions (key "silenceTimeout",
	// milliseconds; massim-go extension; 0 turns it off).
	SilenceTimeout time.Duration
	// AgentTLS and MonitorTLS are the certificate and key files of the
	// agent port and of the monitor and operations ports (keys
	// "agentTLSCert", "agentTLSKey", "monitorTLSCert", "monitorTLSKey";
	// massim-go extension); empty: plain TCP, plain HTTP.
	AgentTLS, MonitorTLS TLSFiles
	// WaitForOffline says whether a step waits, up to its deadline, for
	// an account of the match without a connection: WaitNever, WaitSeen
	// (the default) or WaitAlways (key "waitForOffline"; massim-go
	// extension).
	WaitForOffline string
	// Team commands (massim-go extensions, docs/config.md, "Team commands"):
	// how long the accounts of a team with a command may take to connect
	// before its match starts anyway (key "teamConnectTimeout", ms), how long
	// a stopped command has between SIGTERM and SIGKILL ("teamStopGrace",
	// ms), how often a command that exits during a match is started again
	// ("teamRestarts") and the size at which a team's log is cut
	// ("teamLogLimit", bytes). TeamQuietTime ("teamQuietTime", ms) ends the
	// wait early for a team of which at least one account is connected and
	// none has logged in for that long: clients that connect one agent,
	// learn the team size from its sim-start and only then connect the
	// others; 0 waits for every account.
	TeamConnectTimeout time.Duration
	TeamQuietTime      time.Duration
	TeamStopGrace      time.Duration
	TeamRestarts       int
	TeamLogLimit       int
	// The sandbox of team commands (massim-go extensions, docs/config.md,
	// "Team sandbox"; docs/untrusted-teams.md): SandboxAuto (the default)
	// or SandboxNone ("teamSandbox"), and each team command's limits: CPUs
	// ("teamCPUs", a share and a hard limit), memory ("teamMemoryMiB"),
	// processes and threads ("teamProcesses"), scratch disk for its home
	// and temporary folder ("teamScratchMiB"), open files
	// ("teamOpenFiles"), and the user and group ids the teams run as
	// ("teamUIDs", [first, last]).
	TeamSandbox    string
	TeamCPUs       float64
	TeamMemoryMiB  int
	TeamProcesses  int
	TeamScratchMiB int
	TeamOpenFiles  int
	TeamUIDs       Bounds
	// Defaulted lists the keys that were absent and got their default, for logging.
	Defaulted []string
}

// TLSFiles names a PEM certificate (chain) and its private key; both or
// neither are set.
type TLSFiles struct {
	Cert, Key string
}

// On reports whether TLS is configured.
func (f TLSFiles) On() bool { return f.Cert != "" }

// Team is one entry of the "teams" block. Accounts are Prefix+Name+i, i = 1..MaxTeamSize.
type Team struct {
	Name     string
	Prefix   string
	Password string
	// Command starts the team's agents before each of its matches
	// (massim-go extension, docs/config.md, "Team commands"): the program
	// and its arguments, run without a shell, with {placeholders} still in
	// them. Nil: the team connects by itself.
	Command []string
	// Dir is the command's working folder, absolute (the config gives it
	// relative to the file that names it); "" is the server's.
	Dir string
	// Env are variables added to the command's environment (values may
	// hold placeholders).
	Env map[string]string
	// Image, when set, runs Command as the arguments of a container of
	// this local image (podman; docs/untrusted-teams.md, "Containers").
	Image string
}

// Bounds is an inclusive [min, max] pair.
type Bounds struct{ Min, Max int }

// Match is one simulation ("match" array entry), validated (docs/config.md, "Match entries").
type Match struct {
	ID                  string
	Steps               int
	RandomSeed          int64
	HasRandomSeed       bool // false: seed from the clock at simulation start
	RandomFail          int
	TeamSize            int // sum of the "entities" counts
	ClusterBounds       Bounds
	Roles               []Role // inheritance from the first (default) role already applied
	ClearEnergyCost     int
	DeactivatedDuration int
	MaxEnergy           int
	RefreshEnergy       int
	StepRecharge        int
	ClearDamage         []int
	AttachLimit         int
	Grid                Grid
	BlockTypes          Bounds
	Dispensers          Bounds
	Tasks               Tasks
	Events              Events
	Regulation          Regulation
	Setup               string // path of the setup file as resolved (see ResolvePath), "" if none
	AbsolutePosition    bool
}

// Role is a fully resolved role (docs/config.md, "Roles").
type Role struct {
	Name             string
	Vision           int
	Actions          []string // default role's actions first, then the role's own, no duplicates
	Speed            []int
	ClearChance      float64
	ClearMaxDistance int
}

// Grid is the "grid" object of a match entry.
type Grid struct {
	Width        int
	Height       int
	File         string // bitmap path as resolved, "" if none
	Instructions []Instruction
	Goals        Zones
	RoleZones    Zones
	// Connected asks map generation to guarantee that start positions,
	// dispensers and zones are mutually reachable (massim-go extension).
	Connected bool
}

// Instruction is one terrain generation step, e.g. ["cave", 0.6, 2, 5, 4].
type Instruction struct {
	Name string
	Args []float64
}

// Zones configures goal or role zones.
type Zones struct {
	Number          int
	Size            Bounds
	MoveProbability float64 // goal zones only
}

// Tasks is the "tasks" object.
type Tasks struct {
	Size        Bounds
	Concurrent  int
	Iterations  Bounds
	MaxDuration Bounds
}

// Events is the "events" object (clear events).
type Events struct {
	Chance    int
	Radius    Bounds
	Warning   int
	Create    Bounds
	Perimeter int
}

// Regulation is the "regulation" object (norms).
type Regulation struct {
	Simultaneous int
	Chance       float64
	Subjects     []NormSubject
}

// NormSubject is one norm template.
type NormSubject struct {
	Name         string // Carry, Adopt or RoleIndividual
	Announcement Bounds
	Duration     Bounds
	Punishment   Bounds
	Weight       float64
	Quantity     Bounds // Carry: optional.quantity (default {0,4})
	Playing      int    // Adopt: optional.playing percent (default 100)
}

// MaxTeamSize is the largest team size over all match entries.
func (c *Config) MaxTeamSize() int {
	n := 0
	for _, m := range c.Match {
		n = max(n, m.TeamSize)
	}
	return n
}

// TeamSizes lists the team size of every match entry, in order.
func (c *Config) TeamSizes() []int {
	sizes := make([]int, len(c.Match))
	for i, m := range c.Match {
		sizes[i] = m.TeamSize
	}
	return sizes
}
