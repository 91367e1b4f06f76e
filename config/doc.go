// Package config reads the official MASSim 2022 JSON configuration: "$(file)"
// includes resolved relative to the including file, the server block with its
// defaults, manual-mode, the match array and the teams block. It validates
// everything once and produces plain typed structs; every error names the file
// holding the bad value and its key path ("sim/sim1.json: match[0].grid.width:
// must be > 0"). Nothing else in massim-go reads config JSON by key.
// The format is documented in docs/config.md.
//
// # How a config is read
//
//  1. Each file is decoded into an order-preserving tree (tree.go): objects
//     keep their key order (team order is file order), numbers keep their
//     literal text (int64 seeds survive), and every node remembers its file.
//  2. Includes are expanded on that tree (include.go), so after expansion a
//     value still knows which included file it came from.
//  3. Each fixed-schema object (server block, match entry, grid, role, norm…)
//     is checked node by node (values.go): strict JSON types and ranges, with
//     errors, warnings and unknown keys collected in a report (report.go).
//  4. The validated values of an object form a layer, and koanf stacks the
//     layers and decodes them into the output structs (assemble.go). That is
//     where defaults live: server defaults under the server block, optional
//     match keys, and role inheritance (the default role under each role).
//
// koanf's key delimiter cannot clash with user data because only this
// package's own field names become koanf keys: user-chosen names (teams,
// entities, roles) are walked on the tree and enter layers as finished
// values, and ordered data enters as lists.
package config
