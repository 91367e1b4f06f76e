// Package houserules checks, in its tests, the rules of the house that
// docs/architecture.md writes down, so that a change that breaks one fails
// CI with the rule's words instead of waiting for a reviewer: every import
// of ours must be one that the package table's "may import" column allows,
// and every duration in a log line names its unit (took_ms).
// The package itself holds only the reading of that table.
package houserules
