package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Mode is the permission new files get before the umask applies.
const Mode fs.FileMode = 0o644

// Options tune Write.
type Options struct {
	// Durable syncs the file before the rename and the folder after it,
	// so that the new content survives a power loss, not just a crash of
	// the process.
	Durable bool
}

// Write replaces path with data atomically.
func Write(path string, data []byte, opts Options) error {
	dir := filepath.Dir(path)
	tmp, err := writeTemp(dir, filepath.Base(path), data, opts)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		if tmp != "" {
			if rerr := os.Remove(tmp); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				err = errors.Join(err, rerr)
			}
		}
		return fmt.Errorf("atomicfile: write %s: %w", path, err)
	}
	if opts.Durable {
		return SyncDir(dir)
	}
	return nil
}

// writeTemp writes data to a new temporary file beside the target base in
// dir and returns its path ("" when it could not be created).
func writeTemp(dir, base string, data []byte, opts Options) (string, error) {
	tmp, f, err := createTemp(dir, base)
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil && opts.Durable {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return tmp, err
}

// createTemp opens a new hidden file next to the target. Unlike
// os.CreateTemp (always 0600) it asks for Mode, so the kernel applies the
// umask and the renamed file has the permissions of a normally created one.
func createTemp(dir, base string) (string, *os.File, error) {
	var suffix [8]byte
	for range 100 {
		if _, err := rand.Read(suffix[:]); err != nil {
			return "", nil, err
		}
		name := filepath.Join(dir, "."+base+"-"+hex.EncodeToString(suffix[:])+".tmp")
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, Mode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return name, f, err
	}
	return "", nil, fmt.Errorf("no free temporary name in %s", dir)
}

// SyncDir makes the entries of dir (a rename, a new file) durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("atomicfile: sync folder %s: %w", dir, err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("atomicfile: sync folder %s: %w", dir, err)
	}
	return nil
}

// Create writes data to path, which must not exist yet (fs.ErrExist
// otherwise), so that path never holds part of data: the content goes to a
// temporary file first, which is then hard-linked to path (atomic and
// exclusive) and removed.
func Create(path string, data []byte, opts Options) error {
	dir := filepath.Dir(path)
	tmp, err := writeTemp(dir, filepath.Base(path), data, opts)
	if err == nil {
		err = os.Link(tmp, path)
	}
	if tmp != "" {
		if rerr := os.Remove(tmp); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = errors.Join(err, rerr)
		}
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("atomicfile: create %s: %w", path, fs.ErrExist)
	}
	if err != nil {
		return fmt.Errorf("atomicfile: create %s: %w", path, err)
	}
	if opts.Durable {
		return SyncDir(dir)
	}
	return nil
}

// RemoveTemporary removes the temporary files that Write and Create leave
// in dir when the process dies in the middle of a write (".NAME-HEX.tmp"),
// and returns their names. Only the one process writing into dir may call
// it: another's write in progress would lose its temporary file.
func RemoveTemporary(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("atomicfile: list %s: %w", dir, err)
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !IsTemporary(e.Name()) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("atomicfile: remove a temporary file: %w", err)
		}
		removed = append(removed, e.Name())
	}
	return removed, nil
}

// IsTemporary tells whether name is one of the temporary files of Write and
// Create: ".", the target's name, "-", 16 hex digits, ".tmp".
func IsTemporary(name string) bool {
	rest, ok := strings.CutSuffix(name, ".tmp")
	if !ok || !strings.HasPrefix(rest, ".") || len(rest) < 1+1+1+16 || rest[len(rest)-17] != '-' {
		return false
	}
	_, err := hex.DecodeString(rest[len(rest)-16:])
	return err == nil
}
