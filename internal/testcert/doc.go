// Package testcert makes a self-signed TLS certificate for tests at run
// time (crypto/x509), so that no private key is ever committed: PEM files
// for the server's config keys and a pool for clients that trust it.
package testcert
