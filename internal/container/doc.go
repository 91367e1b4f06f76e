// Package container tests the repository's Dockerfile with a real container
// engine (Debian's podman, rootful): it builds the image, runs its default
// command (the demo) and an unattended tournament with agents connecting
// from outside, and stops containers with SIGTERM (docs/operations.md,
// "Docker"). It has no code of its own; scripts/install/podman.sh installs
// the engine and builds the image that replaces the build stage's base,
// from the Debian mirror of the machine's apt sources (read by
// scripts/install/aptsources.sh, which its tests run on sample files).
package container
