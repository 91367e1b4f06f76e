// Package massimbin builds the massim command once per test binary for the
// tests that run it as a real process (a build takes seconds on a shared
// machine): cmd/massim's own tests and the Slurm tests of league/slurm.
package massimbin
