package flagvalue

import (
	"testing"

	"github.com/ponte/ponte/ingest"
)

// The limit flags' defaults are ingest's.
func TestDefaultLimits(t *testing.T) {
	if lim, err := DefaultLimits().Limits(); err != nil || lim != ingest.DefaultLimits() {
		t.Errorf("the flags' defaults give %+v, %v; want ingest.DefaultLimits()", lim, err)
	}
}
