package config

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// maxFileSize bounds what is read as one file; real config files are a few
// KB. It keeps an include of a device or a huge file from eating the memory.
const maxFileSize = 16 << 20

// source is where config files come from: the operating system's file
// system (Load, Parse) or an fs.FS (LoadFS, the embedded demo). Names are in
// the source's own syntax (OS paths or slash-separated fs.FS paths).
type source interface {
	readFile(name string) ([]byte, error)
	exists(name string) bool
	dir(name string) string
	// join resolves rel against dir the way the Java server does: dir + "/" + rel, so a
	// rel starting with "/" is still relative to dir.
	join(dir, rel string) string
	// identity names a file uniquely, for include cycle detection.
	identity(name string) string
}

// osSource reads from the operating system's file system.
type osSource struct{}

func (osSource) readFile(name string) ([]byte, error) {
	// Stat before opening: opening a named pipe would block.
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("not a regular file")}
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, name)
}

func (osSource) exists(name string) bool {
	info, err := os.Stat(name)
	return err == nil && info.Mode().IsRegular()
}

func (osSource) dir(name string) string { return filepath.Dir(name) }

func (osSource) join(dir, rel string) string {
	return filepath.Join(dir, filepath.FromSlash(rel))
}

func (osSource) identity(name string) string {
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return filepath.Clean(name)
}

// fsSource reads from an fs.FS; names are slash-separated and cannot leave
// the FS (a "../" that climbs above its root fails to open).
type fsSource struct{ fsys fs.FS }

func (s fsSource) readFile(name string) ([]byte, error) {
	f, err := s.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, name)
}

func (s fsSource) exists(name string) bool {
	info, err := fs.Stat(s.fsys, name)
	return err == nil && !info.IsDir()
}

func (fsSource) dir(name string) string      { return path.Dir(name) }
func (fsSource) join(dir, rel string) string { return path.Join(dir, rel) }
func (fsSource) identity(name string) string { return path.Clean(name) }

// readLimited reads a whole file of at most maxFileSize bytes.
func readLimited(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, errors.New(name + ": larger than 16 MiB, not a config file")
	}
	return data, nil
}
