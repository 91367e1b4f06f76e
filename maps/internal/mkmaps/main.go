// Command mkmaps rewrites the shipped map files from their deterministic
// drawings (package mapgen). Run from the module root:
//
//	go run ./maps/internal/mkmaps [-dir maps/shipped] [-ascii]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/massim-go/massim/maps"
	"github.com/massim-go/massim/maps/internal/mapgen"
)

func main() {
	dir := flag.String("dir", filepath.Join("maps", "shipped"), "output directory")
	ascii := flag.Bool("ascii", false, "also print each map as text (# obstacle, G goal)")
	flag.Parse()
	files, err := mapgen.Files()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkmaps:", err)
		os.Exit(1)
	}
	for _, f := range files {
		path := filepath.Join(*dir, f.Name)
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "mkmaps:", err)
			os.Exit(1)
		}
		bm, err := maps.LoadBitmap(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mkmaps:", err)
			os.Exit(1)
		}
		obst, goals := bm.Overlay(bm.Width, bm.Height)
		_, regions := maps.Regions(bm.Width, bm.Height, obst)
		fmt.Printf("%s: %d×%d, %d bytes, obstacles %.1f%%, %d goal pixels, %d free region(s)\n",
			path, bm.Width, bm.Height, len(f.Data), 100*maps.ObstacleRatio(obst), len(goals), regions)
		if *ascii {
			for y := range bm.Height {
				line := make([]byte, bm.Width)
				for x := range bm.Width {
					line[x] = ".#G"[bm.At(x, y)]
				}
				fmt.Println(string(line))
			}
		}
	}
}
