package flagvalue

import (
	"errors"

	"github.com/ponte/ponte/ingest"
)

// FormatValue is the --format flag of a command that writes records: "ponte" or "jsonl".
// Until it is given, its value is ingest.FormatUnknown: the output's name chooses.
type FormatValue struct{ p *ingest.Format }

// Format is the --format flag that sets *p.
func Format(p *ingest.Format) FormatValue { return FormatValue{p} }

func (v FormatValue) String() string {
	if v.p == nil || *v.p == ingest.FormatUnknown {
		return ""
	}
	return v.p.String()
}

func (v FormatValue) Set(s string) error {
	f, err := ingest.ParseFormat(s)
	if err != nil || !f.Writable() {
		return &ValueError{errors.New(`must be "ponte" or "jsonl"`), true}
	}
	*v.p = f
	return nil
}

func (FormatValue) Type() string { return "string" }
