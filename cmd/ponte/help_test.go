package main

import (
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command of the tree has its long help from help/, and every file of help/ is the
// help of a command (or the formats every reading command names).
func TestEveryHelpFile(t *testing.T) {
	root := newRootCmd(&streams{in: strings.NewReader(""), out: &checkedWriter{w: io.Discard}, err: io.Discard})
	used := map[string]bool{"formats.txt": true}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Name() != "help" && c.Name() != "completion" {
			name := strings.ReplaceAll(c.CommandPath(), " ", "-")
			if name != "ponte" {
				name = strings.TrimPrefix(name, "ponte-")
			}
			used[name+".txt"] = true
			if want := help(name); c.Long != want || strings.HasPrefix(want, "no help") || strings.Contains(want, "{{") {
				t.Errorf("%s: its long help is not help/%s.txt, or that file is missing or holds a {{placeholder}}", c.CommandPath(), name)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	files, err := fs.ReadDir(helpFiles, "help")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !used[f.Name()] {
			t.Errorf("help/%s is the help of no command", f.Name())
		}
	}
}
