package tournament

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// LockFile is the lock a running server holds in its tournament folder, so
// that two servers never write one folder's manifest and results at once.
const LockFile = ".massim.lock"

// LockHolder is what a lock file says about the process holding it.
type LockHolder struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Command []string  `json:"command"`
	Since   time.Time `json:"since"`
}

func (h LockHolder) String() string {
	return fmt.Sprintf("process %d on %s (%s, since %s)", h.PID, h.Host, commandLine(h.Command), h.Since.Local().Format(time.DateTime))
}

func commandLine(args []string) string {
	if len(args) == 0 {
		return "unknown command"
	}
	line := filepath.Base(args[0])
	for _, a := range args[1:] {
		line += " " + a
	}
	return line
}

// FolderInUseError is returned when another live process holds the folder.
type FolderInUseError struct {
	Dir    string
	Holder LockHolder // zero when the lock file could not be read
}

func (e *FolderInUseError) Error() string {
	who := "another process"
	if e.Holder.PID != 0 {
		who = e.Holder.String()
	}
	return fmt.Sprintf("tournament: the tournament folder %s is in use by %s; stop that server first or use another folder (-dir)", e.Dir, who)
}

// Lock is a held lock on a tournament folder. The operating system
// releases it when the process ends, however it ends, so the lock of a
// crashed or killed server is simply taken over by the next one.
type Lock struct {
	f       *os.File
	path    string
	created bool // the folder did not exist before the lock
	// Previous is the holder recorded by a process that ended without
	// releasing the lock (zero when there was none).
	Previous LockHolder
}

// LockFolder takes the lock of dir (LockFile), creating dir when needed,
// for a server or another writer of a folder, such as a league, until
// Release is called or the process ends. A folder held by a live process
// is refused with a FolderInUseError.
func LockFolder(dir string) (*Lock, error) {
	created := false
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		created = true
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("tournament: create tournament folder: %w", err)
	}
	path := filepath.Join(dir, LockFile)
	for range 10 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("tournament: lock tournament folder: %w", err)
		}
		held, err := tryLock(f)
		if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("tournament: lock tournament folder %s: %w", dir, err)
		}
		if !held {
			holder, _ := readHolder(f)
			_ = f.Close()
			return nil, &FolderInUseError{Dir: dir, Holder: holder}
		}
		// The holder before us may have removed the file between our open
		// and our lock: then we locked a file nobody else will see.
		if same, err := sameFile(f, path); err != nil || !same {
			_ = f.Close()
			continue
		}
		l := &Lock{f: f, path: path, created: created}
		l.Previous, _ = readHolder(f)
		if err := l.writeHolder(); err != nil {
			l.Release()
			return nil, err
		}
		return l, nil
	}
	return nil, fmt.Errorf("tournament: lock tournament folder %s: the lock file keeps being replaced", dir)
}

func sameFile(f *os.File, path string) (bool, error) {
	a, err := f.Stat()
	if err != nil {
		return false, err
	}
	b, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	return os.SameFile(a, b), nil
}

func readHolder(f *os.File) (LockHolder, error) {
	var h LockHolder
	data, err := os.ReadFile(f.Name())
	if err != nil || len(data) == 0 {
		return h, err
	}
	return h, json.Unmarshal(data, &h)
}

func (l *Lock) writeHolder() error {
	host, _ := os.Hostname()
	data, err := json.Marshal(LockHolder{PID: os.Getpid(), Host: host, Command: os.Args, Since: time.Now().UTC()})
	if err != nil {
		return err
	}
	if err := l.f.Truncate(0); err != nil {
		return fmt.Errorf("tournament: write lock file: %w", err)
	}
	if _, err := l.f.WriteAt(append(data, '\n'), 0); err != nil {
		return fmt.Errorf("tournament: write lock file: %w", err)
	}
	return nil
}

// Release removes the lock file and gives the lock up; a folder the lock
// created that is still empty is removed too, so that a start that failed
// leaves nothing behind.
func (l *Lock) Release() {
	_ = os.Remove(l.path) // before unlocking: nobody may lock a file about to vanish
	_ = l.f.Close()       // closing releases the lock
	if l.created {
		_ = os.Remove(filepath.Dir(l.path)) // fails, as it should, when not empty
	}
}
