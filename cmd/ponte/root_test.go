package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
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

// Issue 31 finding 14: `ponte atlas nosuch` printed the atlas's help and exited 0, as did
// any unknown subcommand of a group, and `ponte help nosuch`. Each is a usage error, exit
// status 2, naming the word, for every group of the tree (walked, so that a new group is
// checked too); a group alone still prints its help.
func TestUnknownCommand(t *testing.T) {
	root := newRootCmd(&streams{})
	var groups [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if c.HasSubCommands() {
			groups = append(groups, path)
		}
		for _, sub := range c.Commands() {
			walk(sub, append(slices.Clip(path), sub.Name()))
		}
	}
	walk(root, nil)
	if len(groups) < 2 {
		t.Fatalf("groups %q: want the root and ponte atlas at least", groups)
	}
	for _, g := range groups {
		name := strings.Join(append([]string{"ponte"}, g...), " ")
		for _, args := range [][]string{append(slices.Clip(g), "nosuch"), append([]string{"help"}, append(slices.Clip(g), "nosuch")...)} {
			out, errOut, status := runPonte(t, "", args...)
			want := `unknown command "nosuch" for "` + name + `"`
			if status != exitUsage || out != "" || !strings.Contains(errOut, want) {
				t.Errorf("ponte %s: exit status %d, output %q, standard error %q; want 2 and %q", strings.Join(args, " "), status, out, errOut, want)
			}
		}
		if len(g) == 0 {
			continue
		}
		for _, args := range [][]string{g, append([]string{"help"}, g...)} {
			if out, errOut, status := runPonte(t, "", args...); status != exitOK || !strings.Contains(out, "Usage:") {
				t.Errorf("ponte %s: exit status %d, output %q, %q: want its help", strings.Join(args, " "), status, out, errOut)
			}
		}
	}
	for _, args := range [][]string{{"atlas", "help"}, {"atlas", "help", "run"}, {"help", "atlas", "run"}} {
		want := "ponte " + strings.Join(slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "help" }), " ")
		if out, errOut, status := runPonte(t, "", args...); status != exitOK || !strings.Contains(out, "Usage:\n  "+want) {
			t.Errorf("ponte %s: exit status %d, %q, %q: want the help of %s", strings.Join(args, " "), status, out, errOut, want)
		}
	}
	if _, errOut, status := runPonte(t, "", "atlas", "help", "nosuch"); status != exitUsage || !strings.Contains(errOut, `unknown command "nosuch" for "ponte atlas"`) {
		t.Errorf("ponte atlas help nosuch: exit status %d, %q", status, errOut)
	}
	for args, want := range map[string]string{
		"atlas rnu": `unknown command "rnu" for "ponte atlas": did you mean run?`,
		"verfy":     `unknown command "verfy" for "ponte": did you mean verify?`,
	} {
		if _, errOut, status := runPonte(t, "", strings.Fields(args)...); status != exitUsage || !strings.Contains(errOut, want) {
			t.Errorf("ponte %s: exit status %d, %q: want 2 and %q", args, status, errOut, want)
		}
	}
}

// Issue 31 finding 14: the record-reading limits (--max-record-bytes, --max-tags, …) were
// global flags, shown by commands that read no records (atlas show, bots, selfplay,
// match). They are flags of verify, ingest, export and analyze alone: every other command
// of the tree refuses them as unknown flags.
func TestLimitFlagsOnReadersOnly(t *testing.T) {
	readers := map[string]bool{"ponte verify": true, "ponte ingest": true, "ponte export": true, "ponte analyze": true}
	limits := []string{"max-record-bytes", "max-turns", "max-tags", "max-comment-bytes", "max-in-flight"}
	var walk func(c *cobra.Command)
	seen := 0
	walk = func(c *cobra.Command) {
		for _, l := range limits {
			has := c.Flags().Lookup(l) != nil || c.InheritedFlags().Lookup(l) != nil || c.PersistentFlags().Lookup(l) != nil
			if has != readers[c.CommandPath()] {
				t.Errorf("%s: has --%s %v, want %v", c.CommandPath(), l, has, !has)
			}
			if has {
				seen++
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(&streams{}))
	if seen != len(readers)*len(limits) {
		t.Errorf("%d limit flags on the readers, want %d", seen, len(readers)*len(limits))
	}
	for _, args := range [][]string{{"bots", "--max-tags", "5"}, {"atlas", "show", "--max-record-bytes", "1MiB"}, {"selfplay", "--max-turns", "5"}} {
		if _, errOut, status := runPonte(t, "", args...); status != exitUsage || !strings.Contains(errOut, "unknown flag: --max-") {
			t.Errorf("ponte %s: exit status %d, %q: want 2, unknown flag", strings.Join(args, " "), status, errOut)
		}
	}
	if out, _, _ := runPonte(t, "", "atlas", "show", "--help"); strings.Contains(out, "max-record-bytes") {
		t.Errorf("ponte atlas show --help shows the limit flags:\n%s", out)
	}
}
