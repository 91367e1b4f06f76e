package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
)

// profileFlags are the performance flags of the server: -procs, and
// -cpuprofile and -memprofile (pprof files). serve and match apply them to
// their own process, bench to the server child process.
type profileFlags struct {
	procs int
	cpu   string
	mem   string
}

// defaultProcs is the server's default -procs: the step loop is sequential,
// and a second core mostly adds cross-core wake-ups of the scheduler (a
// third of the CPU per step on small matches; docs/performance.md).
const defaultProcs = 1

func (p *profileFlags) register(fs *flag.FlagSet, whose string) {
	p.procs = -1 // unset: defaultProcs, unless GOMAXPROCS is set
	fs.Var(procsValue{&p.procs}, "procs", fmt.Sprintf("`N` cores %s's Go code may use at once (default %d unless the GOMAXPROCS variable is set; 0: all)", whose, defaultProcs))
	fs.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of "+whose+" to this file (read it with go tool pprof)")
	fs.StringVar(&p.mem, "memprofile", "", "write a heap profile of "+whose+" to this file when it ends (allocations and live memory)")
}

// procsValue is -procs: a count of cores, or unset (-1). Its own type so
// that the help does not print the -1 that stands for "unset" beside the
// real default the usage text names.
type procsValue struct{ n *int }

func (v procsValue) String() string {
	if v.n == nil || *v.n < 0 {
		return ""
	}
	return strconv.Itoa(*v.n)
}

func (v procsValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a number of cores, 0 or more")
	}
	*v.n = n
	return nil
}

// applyProcs sets GOMAXPROCS from -procs (or its default).
func (p *profileFlags) applyProcs() {
	switch {
	case p.procs > 0:
		runtime.GOMAXPROCS(p.procs)
	case p.procs == 0:
		runtime.GOMAXPROCS(runtime.NumCPU())
	case os.Getenv("GOMAXPROCS") == "":
		runtime.GOMAXPROCS(defaultProcs)
	}
}

// start applies -procs and begins CPU profiling; stop ends it and writes
// the heap profile. Profiling errors are reported, never fatal to the run
// they watch.
func (p *profileFlags) start() (stop func() error, err error) {
	p.applyProcs()
	var cpuFile *os.File
	if p.cpu != "" {
		f, err := os.Create(p.cpu)
		if err != nil {
			return nil, fmt.Errorf("-cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("-cpuprofile: %w", err)
		}
		cpuFile = f
	}
	return func() error {
		var errs []error
		if cpuFile != nil {
			pprof.StopCPUProfile()
			if err := cpuFile.Close(); err != nil {
				errs = append(errs, fmt.Errorf("-cpuprofile: %w", err))
			}
		}
		if p.mem != "" {
			if err := writeHeapProfile(p.mem); err != nil {
				errs = append(errs, fmt.Errorf("-memprofile: %w", err))
			}
		}
		return errors.Join(errs...)
	}, nil
}

func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC() // the live-memory figures are those after the last collection
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// childArgs passes the flags on to a server child process; the profile
// flags only when profiles is true.
func (p *profileFlags) childArgs(profiles bool) []string {
	var args []string
	if p.procs >= 0 {
		args = append(args, "-procs", strconv.Itoa(p.procs))
	}
	if !profiles {
		return args
	}
	if p.cpu != "" {
		args = append(args, "-cpuprofile", p.cpu)
	}
	if p.mem != "" {
		args = append(args, "-memprofile", p.mem)
	}
	return args
}
