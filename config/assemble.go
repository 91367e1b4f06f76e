package config

import (
	"fmt"

	"github.com/go-viper/mapstructure/v2"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/v2"
)

// layer holds the validated values of one config object, keyed like the
// fields of the struct it becomes (field matching is case-insensitive, so
// most keys are the JSON keys themselves). Nested objects are nested layers;
// [min,max] pairs, lists and already assembled structs are plain values.
type layer = map[string]any

// assemble stacks layers in koanf — later layers win, nested layers merge
// key by key, lists are replaced whole — and decodes the result into out.
// This is how defaults work everywhere: the server block over its defaults
// layer, a match entry over the defaults of its optional keys, a role over
// the default role (docs/config.md, "Roles": a later role takes the default
// role's vision unless it gives its own, and a speed it gives replaces the
// default role's whole).
//
// koanf's key delimiter "." can never clash: layer keys are this package's
// own field names. Names chosen by users (teams, entities, roles) are never
// keys of a layer; order-sensitive data (teams, roles, subjects) is read
// from the order-preserving tree and enters layers as finished lists.
//
// Decoding is strict both ways: every field of out must be set by some
// layer and every key must match a field, so a forgotten or misspelt key is
// a bug the tests catch instead of a silent zero value.
func assemble(out any, layers ...layer) error {
	k := koanf.New(".")
	for _, l := range layers {
		if err := k.Load(confmap.Provider(l, ""), nil); err != nil {
			return fmt.Errorf("config: layering %T: %w", out, err)
		}
	}
	conf := koanf.UnmarshalConf{DecoderConfig: &mapstructure.DecoderConfig{
		Result:      out,
		ErrorUnused: true,
		ErrorUnset:  true,
	}}
	if err := k.UnmarshalWithConf("", out, conf); err != nil {
		return fmt.Errorf("config: assembling %T: %w", out, err)
	}
	return nil
}

// into copies validated required members of an object into a layer under
// their own key, so reading a block is one line per key.
type into struct {
	o *object
	l layer
}

func (t into) int(key string, rng intRange) {
	if v, ok := t.o.int(key, rng); ok {
		t.l[key] = v
	}
}

func (t into) number(key string, rng floatRange) {
	if v, ok := t.o.number(key, rng); ok {
		t.l[key] = v
	}
}

func (t into) bounds(key string, rng intRange) {
	if v, ok := t.o.bounds(key, rng); ok {
		t.l[key] = v
	}
}

func (t into) intList(key string, rng intRange) {
	if v, ok := t.o.intList(key, rng); ok {
		t.l[key] = v
	}
}
