//go:build !linux

package sandbox

import (
	"errors"
	"net"
	"os"
	"runtime"
	"syscall"
	"time"
)

// errNotLinux is every sandbox outside Linux.
var errNotLinux = errors.New("sandbox: team commands can be isolated on Linux only (this is " + runtime.GOOS + "); set \"teamSandbox\": \"none\" to run them unconfined")

// Check says that only Linux has a sandbox.
func Check(firstUID, lastUID int, images bool) error { return errNotLinux }

// LeaseUID fails outside Linux.
func LeaseUID(first, last int) (int, *os.File, error) { return 0, nil, errNotLinux }

// CloneFlags are none outside Linux.
func CloneFlags(mode string) uintptr { return 0 }

// ListenIn fails outside Linux.
func ListenIn(pid int, lc *net.ListenConfig, port int) (net.Listener, error) { return nil, errNotLinux }

// RunExec fails outside Linux.
func RunExec() { os.Exit(127) }

// Remove has nothing to remove outside Linux.
func Remove(spec Spec) error { return nil }

// Engine fails outside Linux.
func Engine() (string, error) { return "", errNotLinux }

// ImageExists fails outside Linux.
func ImageExists(engine, image string) error { return errNotLinux }

// CPU fails outside Linux.
func CPU(spec Spec) (time.Duration, error) { return 0, errNotLinux }

// Box is never built outside Linux.
type Box struct{}

// Open fails outside Linux.
func Open(spec Spec) (*Box, error) { return nil, errNotLinux }

// Start fails outside Linux.
func (b *Box) Start(path string, argv, env []string, dir string, files []*os.File, sys *syscall.SysProcAttr) (*os.Process, error) {
	return nil, errNotLinux
}

// OutOfMemory is never true outside Linux.
func (b *Box) OutOfMemory() bool { return false }

// KillAll does nothing outside Linux.
func (b *Box) KillAll() {}

// Signal does nothing outside Linux.
func (b *Box) Signal(sig syscall.Signal) {}

// AfterRun does nothing outside Linux.
func (b *Box) AfterRun() {}

// Close does nothing outside Linux.
func (b *Box) Close() error { return nil }
