// Package fakeserver is a minimal scripted MASSim server for the client
// library's tests: it listens on loopback, hands each accepted connection to
// the test, and lets the test send and receive protocol messages on it. It
// implements no game; the test plays the server's part message by message.
package fakeserver
