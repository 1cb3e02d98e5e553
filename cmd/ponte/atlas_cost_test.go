package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestAtlasPlanCost: plan --cost prices an atlas not yet begun without leaving a file, a
// run says its games per core-second, and pricing a stored atlas writes nothing to it.
func TestAtlasPlanCost(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cost.db")
	flags := []string{"--db", db, "--size", "5", "--bot", "greedy", "--first", "2", "--max", "4", "--confirm", "2", "--workers", "1"}
	for _, tc := range []struct {
		name string
		args []string
		out  string // a regexp of stdout, or of stderr for run
	}{
		{"a new atlas", append([]string{"atlas", "plan", "--cost"}, flags...),
			`(?s)^greedy on 5×5: [0-9.e+]+ games per core-second \([0-9]+ games in [0-9.]+ CPU-s, measured now\)\n.*\nthe next round \(main round 1\) +98 .*needs a first round`},
		{"the run", append([]string{"atlas", "run", "--quiet"}, flags...),
			`cost.db: [0-9]+ games stored by this run, [0-9]+ in the database, .* this run, [0-9.]+ CPU-s: [0-9.e+]+ games per core-second\n`},
		{"the atlas done", append([]string{"atlas", "plan", "--cost"}, flags[:2]...),
			`(?s)\nthe next round +0 .*\nthe next round: none: the atlas is done\n`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := os.ReadFile(db)
			out, errOut, status := runPonte(t, "", tc.args...)
			if status != exitOK {
				t.Fatalf("exit %d: %s", status, errOut)
			}
			if tc.args[1] == "run" {
				out = errOut
			}
			if !regexp.MustCompile(tc.out).MatchString(out) {
				t.Errorf("the output does not match %q:\n%s", tc.out, out)
			}
			after, err := os.ReadFile(db)
			switch {
			case tc.args[1] == "run":
			case before == nil && err == nil:
				t.Error("plan --cost of a new atlas left a file")
			case before != nil && !bytes.Equal(before, after):
				t.Error("plan --cost wrote to the atlas's database")
			}
		})
	}
}
