// Package python holds the Go tests of the Python client package massim
// (this folder; docs/python.md): its unit tests and mypy --strict, an install
// into a fresh venv without setuptools, matches of its sample team against
// the server over TCP, a reconnection in the middle of a simulation, and the
// complete agent of docs/python.md. python3 (and mypy) come from
// scripts/install/python.sh; a missing python3 fails the tests.
package python
