package main

import (
	"strings"
	"testing"
)

// TestLimitFlags checks the limit flags: a value out of bounds is a usage error, a limit
// set by a flag makes a larger record unreadable with a message naming the flag, and the
// next command without the flag has the default again.
func TestLimitFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-turns", "0"}, "--max-turns must be from 1 to 1000000, not 0"},
		{[]string{"--max-tags", "2000000"}, "--max-tags must be from 1 to 1000000, not 2000000"},
		{[]string{"--max-record-bytes", "65MiB"}, "--max-record-bytes must be from 1KiB to 64MiB, not 68157440"},
		{[]string{"--max-record-bytes", "5"}, "--max-record-bytes must be from 1KiB to 64MiB, not 5"},
		{[]string{"--max-comment-bytes", "0"}, "--max-comment-bytes must be from 1 to 64MiB, not 0"},
		{[]string{"--max-in-flight", "1TB"}, `"1TB" is not a size in bytes`},
		{[]string{"--max-in-flight", "-1"}, `"-1" is not a size in bytes`},
	} {
		_, errOut, status := runPonte(t, "", append([]string{"verify"}, append(tc.args, "-")...)...)
		if status != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: status %d, %q; want %d and %q", tc.args, status, errOut, exitUsage, tc.want)
		}
	}

	game := "[Event \"a\"]\n\n1. a1,b1 2. c3,d4 3. e5,f6 *\n\n[Event \"b\"]\n\n1. a1,b1 *\n"
	out, errOut, status := runPonte(t, game, "verify", "--max-turns", "2", "--max-record-bytes", "1KiB", "-")
	if status != exitFindings || out != "-:3:22: game 1: format: more than 2 turns in one record (--max-turns)\n" ||
		!strings.Contains(errOut, "2 games: 1 legal, 0 illegal, 1 unreadable") {
		t.Errorf("status %d:\n%s%s", status, out, errOut)
	}
	// The limits are the command's values: the next command has the defaults.
	if _, _, status := runPonte(t, game, "verify", "-"); status != exitOK {
		t.Errorf("status %d", status)
	}
}
