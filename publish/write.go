package publish

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/massim-go/massim/internal/atomicfile"
	"github.com/massim-go/massim/replays/convert"
	"github.com/massim-go/massim/server/monitor/web"
)

// Options are the choices of massim publish.
type Options struct {
	Title string // the index page's title (default: the folder's name)
}

// Report says what a publish did.
type Report struct {
	Site      *Site
	Written   []string // files written (new or changed), relative to OUT
	Unchanged int      // files left as they were
	Bytes     int64    // size of the whole site
}

// Viewer is the folder of the monitor page inside the site.
const Viewer = "viewer"

// convertOfficial turns an official replay folder into a compact file
// (a variable so that tests can count conversions).
var convertOfficial = convert.ToCompact

// Publish writes the site of the tournaments, leagues or replays in dir
// into out (see the package comment). dir is only read.
func Publish(dir, out string, opts Options) (*Report, error) {
	if abs, err := filepath.Abs(dir); err == nil {
		if o, err := filepath.Abs(out); err == nil && (o == abs || isBelow(o, abs)) {
			return nil, fmt.Errorf("publish: %s is inside %s, which publish only reads", out, dir)
		}
	}
	site, err := collect(dir, out)
	if err != nil {
		return nil, err
	}
	if opts.Title != "" {
		site.Title = opts.Title
	}
	files, err := web.StaticFiles()
	if err != nil {
		return nil, fmt.Errorf("publish: %w", err)
	}
	rep := &Report{Site: site}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := rep.put(out, Viewer+"/"+name, files[name]); err != nil {
			return nil, err
		}
	}
	for _, s := range allSims(site) {
		if s.Replay != "" {
			if err := rep.put(out, s.Replay, s.data); err != nil {
				return nil, err
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(site.results)) {
		data, err := os.ReadFile(site.results[name])
		if err != nil {
			return nil, fmt.Errorf("publish: result file: %w", err)
		}
		if err := rep.put(out, name, data); err != nil {
			return nil, err
		}
	}
	pages, err := leaguePages(site)
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(pages)) {
		if err := rep.put(out, name, pages[name]); err != nil {
			return nil, err
		}
	}
	page, err := indexPage(site)
	if err != nil {
		return nil, err
	}
	if err := rep.put(out, "index.html", page); err != nil {
		return nil, err
	}
	return rep, nil
}

// put writes data to out/name unless the file holds these bytes already
// (it then keeps its mtime: a host syncing by date uploads nothing).
func (r *Report) put(out, name string, data []byte) error {
	path := filepath.Join(out, filepath.FromSlash(name))
	r.Bytes += int64(len(data))
	if same(path, data) {
		r.Unchanged++
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	if err := atomicfile.Write(path, data, atomicfile.Options{}); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	r.Written = append(r.Written, name)
	return nil
}

// same tells whether the file at path holds exactly data.
func same(path string, data []byte) bool {
	fi, err := os.Stat(path)
	if err != nil || fi.Size() != int64(len(data)) {
		return false
	}
	old, err := os.ReadFile(path)
	return err == nil && bytes.Equal(old, data)
}

func allSims(site *Site) []*Sim {
	var out []*Sim
	for _, m := range site.Matches {
		out = append(out, m.Sims...)
	}
	return append(out, site.Loose...)
}

func isBelow(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
