package report

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ponte/ponte/stats"
)

// TestRemoveStale: a report removes the temporary folders that killed runs left beside
// it, and nothing else.
func TestRemoveStale(t *testing.T) {
	parent := t.TempDir()
	dead := "999999999" // above any pid_max: no such process
	live := strconv.Itoa(os.Getppid())
	self := strconv.Itoa(os.Getpid())
	type entry struct {
		name  string
		files []string // "" entries make nothing; a name ending in / is a folder
		old   bool     // last changed an hour ago
		later bool     // last changed after the run began
		gone  bool     // the report removes it
	}
	entries := []entry{
		{name: ".out.tmp-" + dead + "-1", files: []string{marker, "games/", "games/1.html"}, gone: true},
		{name: ".out.tmp-" + dead + "-2.old", files: []string{marker, "index.html", "style.css"}, gone: true},
		{name: ".other.tmp-" + dead + "-3", gone: true}, // killed before its marker
		{name: ".out.tmp-" + self + "-10", files: []string{marker}, gone: true},
		{name: ".out.tmp-12345", files: []string{"games/", "index.html"}, old: true, gone: true}, // an earlier version's
		{name: ".out.tmp-" + live + "-4", files: []string{marker, "games/"}},                     // a run going on
		{name: ".out.tmp-" + dead + "-5", files: []string{marker, "thesis.tex"}},                 // not only a report's
		{name: ".out.tmp-" + dead + "-6", files: []string{"games/"}},                             // no marker
		{name: ".out.tmp-12346", files: []string{"games/"}, later: true},                         // changed since the run began
		{name: ".out.tmp-12347", files: []string{"games/", "notes.txt"}, old: true},
		{name: "out.tmp-" + dead + "-7", files: []string{marker}},
		{name: ".out.tmp-" + dead + "-x", files: []string{marker}},
		{name: ".out.tmp-" + dead + "-8-9", files: []string{marker}},
	}
	hourAgo := time.Now().Add(-time.Hour)
	for _, e := range entries {
		dir := filepath.Join(parent, e.name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range e.files {
			p := filepath.Join(dir, f)
			var err error
			if f[len(f)-1] == '/' {
				err = os.Mkdir(p, 0o755)
			} else {
				err = os.WriteFile(p, []byte("x"), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if e.old || e.later {
			when := hourAgo
			if e.later {
				when = time.Now().Add(time.Hour)
			}
			if err := os.Chtimes(dir, when, when); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Not folders: a file and a link to a folder, with the names of stale folders.
	if err := os.WriteFile(filepath.Join(parent, ".out.tmp-"+dead+"-11"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(parent, ".out.tmp-"+dead+"-5"), filepath.Join(parent, ".out.tmp-"+dead+"-12")); err != nil {
		t.Fatal(err)
	}

	db := fixtureDB(t)
	r, err := stats.Compute(context.Background(), db.Reader, stats.Filter{}, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := Write(context.Background(), db.Reader, r, filepath.Join(parent, "out"), Options{MaxGames: 3})
	if err != nil {
		t.Fatal(err)
	}
	var wantRemoved []string
	for _, e := range entries {
		_, err := os.Lstat(filepath.Join(parent, e.name))
		switch {
		case e.gone && err == nil:
			t.Errorf("%s is left", e.name)
		case !e.gone && err != nil:
			t.Errorf("%s: %v", e.name, err)
		}
		if e.gone {
			wantRemoved = append(wantRemoved, filepath.Join(parent, e.name))
		}
	}
	for _, name := range []string{".out.tmp-" + dead + "-11", ".out.tmp-" + dead + "-12", "out"} {
		if _, err := os.Lstat(filepath.Join(parent, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	slices.Sort(wantRemoved)
	got := slices.Sorted(slices.Values(w.RemovedStale))
	if !slices.Equal(got, wantRemoved) {
		t.Errorf("Written.RemovedStale = %q, want %q", got, wantRemoved)
	}
	// The run's own temporary folder is gone too.
	left, _ := filepath.Glob(filepath.Join(parent, ".out.tmp-"+self+"-*"))
	if len(left) > 0 {
		t.Errorf("left behind: %q", left)
	}
}

// TestRemoveStaleInUse: a temporary folder that a Write of this process is writing is not
// stale, though its pid is this process's.
func TestRemoveStaleInUse(t *testing.T) {
	parent := t.TempDir()
	tmp, err := makeTemp(filepath.Join(parent, "out"), beside)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, marker), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if removed := removeStale(parent, time.Now()); len(removed) != 0 {
		t.Errorf("removed %q while in use", removed)
	}
	releaseTemp(tmp)
	if removed := removeStale(parent, time.Now()); !slices.Equal(removed, []string{tmp}) {
		t.Errorf("removed %q, want %q once released", removed, tmp)
	}
}
