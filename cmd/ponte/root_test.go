package main

import (
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	out, errOut, status := runPonte(t, "", "--version")
	if status != exitOK || errOut != "" || out != "ponte "+version()+"\n" || !strings.Contains(out, "go1.") {
		t.Errorf("exit status %d, %q, %q", status, out, errOut)
	}
}

// Shell completion offers the values of the flags that take one of a few, in every
// command that has them.
func TestCompletions(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"selfplay", "--light", ""}, []string{"random\t", "greedy\t", "mcts\t", "mcts-100\t"}},
		{[]string{"selfplay", "--dark", "mc"}, []string{"mcts-400\t"}},
		{[]string{"selfplay", "--supply", ""}, []string{"unlimited\t", "40/15\t"}},
		{[]string{"selfplay", "--format", ""}, []string{"ponte\t", "jsonl\t"}},
		{[]string{"export", "--format", ""}, []string{"ponte\t", "jsonl\t"}},
		{[]string{"stats", "--population", ""}, []string{"people\t", "bots\t", "all\t"}},
		{[]string{"report", "--population", ""}, []string{"people\t", "bots\t", "all\t"}},
		{[]string{"report", "--size", ""}, []string{"10\t", "12\t", "26\n"}},
		{[]string{"selfplay", "--size", ""}, []string{"10\t", "5\n"}},
	} {
		out, _, status := runPonte(t, "", append([]string{"__complete"}, c.args...)...)
		for _, w := range c.want {
			if status != exitOK || !strings.Contains(out, w) {
				t.Errorf("completion of %q: exit status %d, %q lacks %q", c.args, status, out, w)
			}
		}
	}
}

// The help of every command that reads records names every format it reads.
func TestHelpNamesFormats(t *testing.T) {
	for _, cmd := range [][]string{{"--help"}, {"verify", "--help"}, {"ingest", "--help"}, {"analyze", "--help"}, {"export", "--help"}} {
		out, _, status := runPonte(t, "", cmd...)
		for _, w := range []string{".ponte notation", "JSON Lines", "boardspace.net SGF", "Abstract Play's JSON", ".zip", "(.gz)", "(.zst)"} {
			if status != exitOK || !strings.Contains(out, w) {
				t.Errorf("ponte %s: exit status %d, the help lacks %q", strings.Join(cmd, " "), status, w)
			}
		}
	}
}
