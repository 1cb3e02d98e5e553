package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestInputsLinks: a link to a folder named as a path is walked; a link to a folder met
// in a walk is followed, but not one that loops back to a folder holding it, which is
// said; a folder skipped by its name is said.
func TestInputsLinks(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string][]byte{
		"games/a.ponte":     []byte(twoPonte),
		"games/sub/b.ponte": []byte(twoPonte),
		"games/.cache/c":    []byte("x"),
		"other/d.ponte":     []byte(twoPonte),
	})
	for _, l := range [][2]string{
		{filepath.Join(dir, "games"), filepath.Join(dir, "link")},          // named on the command line
		{filepath.Join(dir, "other"), filepath.Join(dir, "games", "o")},    // met in the walk
		{filepath.Join(dir, "games"), filepath.Join(dir, "games", "loop")}, // a loop
	} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	inputs, err := Inputs([]string{filepath.Join(dir, "link")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range inputs {
		var n *Notice
		switch {
		case errors.As(in.Err, &n):
			got = append(got, "notice "+strings.TrimPrefix(n.Source, dir+"/")+": "+n.Err.Error())
		case in.Err != nil:
			got = append(got, "error "+in.Err.Error())
		default:
			got = append(got, strings.TrimPrefix(in.Path, dir+"/"))
		}
	}
	want := []string{
		"notice link/.cache: a folder skipped by its name (hidden, README or __MACOSX): not read",
		"link/a.ponte",
		"notice link/loop: a link to a folder that holds it (a loop): not followed",
		"link/o/d.ponte",
		"link/sub/b.ponte",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
