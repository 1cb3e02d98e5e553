package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// TestPackageCommentListsEveryCommand: main.go's comment names every command of the tree.
func TestPackageCommentListsEveryCommand(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	comment, _, _ := strings.Cut(string(src), "package main")
	root := newRootCmd(&streams{in: strings.NewReader(""), out: &checkedWriter{w: io.Discard}, err: io.Discard})
	n := 0
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		n++
		if !strings.Contains(comment, "//\tponte "+c.Name()+" ") {
			t.Errorf("main.go's comment does not list ponte %s", c.Name())
		}
	}
	if n < 11 {
		t.Errorf("%d commands found, want 11 or more", n)
	}
}
