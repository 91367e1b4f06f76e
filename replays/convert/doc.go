// Package convert turns official replay folders into compact replay files
// and back. A converted official replay has no match record (the Java
// server keeps none), its things are listed by id and its entities by id,
// and every step's actions are stored as the snapshots show them.
package convert
