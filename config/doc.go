// Package config reads the official MASSim JSON configuration: "$(file)"
// includes resolved relative to the including file, the server block with its
// defaults, manual-mode, the match array and the teams block. It validates
// everything once and produces plain typed structs; every error names the file
// and the key path. Nothing else in massim-go reads config JSON by key.
// See ../shared/spec/CONFIG.md.
package config
