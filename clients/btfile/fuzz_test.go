package btfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no input makes the parser or compiler panic, that
// every error has a position, and that formatting a parsed file is stable.
// The corpus starts from the test files and the shipped behaviour files.
func FuzzParse(f *testing.F) {
	for _, pattern := range []string{"testdata/*.bt", "../builder/behaviours/*.bt"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	f.Add([]byte("behavior a { condition !(x() == \"s\") || 1 >= -2.5 { action y(n, \"q\\\"\", 3) } }"))
	f.Add([]byte("team t a: 10% required b: rest"))
	reg := testRegistry()
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz.bt", src)
		if err != nil {
			var perr *Error
			if !errors.As(err, &perr) || perr.Pos.Line < 1 || perr.Pos.Col < 1 {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		out := Format(file)
		again, err := Parse("formatted.bt", []byte(out))
		if err != nil {
			t.Fatalf("formatted output does not parse: %v\n%s", err, out)
		}
		if out2 := Format(again); out2 != out {
			t.Fatalf("format not stable:\n%s\n---\n%s", out, out2)
		}
		if len(file.Includes) == 0 {
			if p, err := LoadSource("fuzz.bt", src, reg); err == nil && p.Team() != nil {
				_, _ = p.Assign(7)
			}
		}
	})
}
