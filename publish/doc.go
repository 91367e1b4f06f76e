// Package publish writes a finished tournament as a static web site
// (massim publish; docs/publishing.md): an index page with the standings
// and every match, simulation and replay, the monitor page once (it reads
// the replay files itself, js/replayfile.js), and the replays as compact
// files, official replay folders converted on the way. It reads tournament
// folders (a manifest.json), league and season folders (every
// manifest.json below; a season's table is its standings file, which
// counts its rated matches only) and folders of replays, and writes
// nothing into them. Publishing again
// adds what is new and leaves every file whose bytes did not change as it
// is, mtime included.
package publish
