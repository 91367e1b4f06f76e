package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profileFlags are -cpuprofile and -memprofile: pprof files of this process
// (serve, match), or of the server child process (bench).
type profileFlags struct {
	cpu string
	mem string
}

func (p *profileFlags) register(fs *flag.FlagSet, whose string) {
	fs.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of "+whose+" to this file (read it with go tool pprof)")
	fs.StringVar(&p.mem, "memprofile", "", "write a heap profile of "+whose+" to this file when it ends (allocations and live memory)")
}

// start begins CPU profiling; stop ends it and writes the heap profile.
// Profiling errors are reported, never fatal to the run they watch.
func (p *profileFlags) start() (stop func() error, err error) {
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

// childArgs passes the profile flags on to a server child process.
func (p *profileFlags) childArgs() []string {
	var args []string
	if p.cpu != "" {
		args = append(args, "-cpuprofile", p.cpu)
	}
	if p.mem != "" {
		args = append(args, "-memprofile", p.mem)
	}
	return args
}
