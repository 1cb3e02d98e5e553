package stats

import (
	"reflect"
	"slices"
	"testing"
)

// boardTally.merge adds up every field of the tally: a field added to it must be added to
// merge, or the statistics read in ranges lose it. This lists the fields merge adds; a new
// one fails the test until merge takes it and the list names it.
func TestMergeTakesEveryField(t *testing.T) {
	merged := []string{"games", "decided", "finished", "swapped", "opener", "openerSwapped", "openerKept",
		"light", "dark", "draws", "openings", "cells", "scoreLight", "scoreDark", "margin", "islands", "bridges",
		"comps", "length", "sumScore", "sumMargin", "sumLength", "tieBreaks", "endings", "formats", "edge",
		"apart", "months", "undated", "rating"}
	typ := reflect.TypeFor[boardTally]()
	var fields []string
	for i := range typ.NumField() {
		fields = append(fields, typ.Field(i).Name)
	}
	slices.Sort(fields)
	slices.Sort(merged)
	if !slices.Equal(fields, merged) {
		t.Errorf("boardTally has the fields %v; merge adds %v", fields, merged)
	}
}
