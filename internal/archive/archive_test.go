package archive

import (
	"testing"

	"github.com/ponte/ponte/ingest"
)

func TestFormatOf(t *testing.T) {
	for name, want := range map[string]ingest.Format{
		"-": ingest.FormatPonte, "a.ponte": ingest.FormatPonte, "a.jsonl": ingest.FormatJSONL,
		"a.jsonl.gz": ingest.FormatJSONL, "a.jsonl.zst": ingest.FormatJSONL, "a.ponte.gz": ingest.FormatPonte,
		"jsonl": ingest.FormatPonte, "dir.jsonl/a.txt": ingest.FormatPonte, "A.JSONL": ingest.FormatJSONL,
	} {
		if got := FormatOf(name); got != want {
			t.Errorf("FormatOf(%q) = %s, want %s", name, got, want)
		}
	}
}
