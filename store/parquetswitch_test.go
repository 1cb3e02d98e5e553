package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// killedExit is the exit status of a child killed at its crash point.
const killedExit = 7

// setCrashHooks, when not nil, makes the switch of a folder end the process at the step
// named point (os.Exit(killedExit)), with the two renames instead of the exchange when
// twoRenames (parquetswitch_hook_test.go).
var setCrashHooks func(point string, twoRenames bool)

// switchCase is a run of TestParquetSwitchKilled: a command's write of the Parquet folder,
// killed at one point.
type switchCase struct {
	Action     string // "ingest", "parquet-only" or "annotate"
	Point      string // the step of the switch, or "progress turns.parquet": WriteParquet starting turns.parquet
	TwoRenames bool
	Dir        string // the work folder: ponte.db and pq/
}

// runSwitchAction runs c's command's second write in c.Dir (prepareSwitch made the first),
// calling crash at the crash points it has; crash is nil in a rerun.
func runSwitchAction(t *testing.T, c switchCase, crash func(string)) {
	t.Helper()
	ctx := context.Background()
	dir := filepath.Join(c.Dir, "pq")
	progress := func(p ParquetProgress) {
		if crash != nil && p.File == "turns.parquet" {
			crash("progress turns.parquet")
		}
	}
	switch c.Action {
	case "ingest":
		d, err := Open(filepath.Join(c.Dir, "ponte.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if crash != nil {
			ingestInto(t, d, Options{ParquetDir: dir, StreamParquet: true}, club)
		}
		if _, err := d.WriteParquetProgress(dir, progress); err != nil {
			t.Fatal(err)
		}
	case "parquet-only":
		d, err := OpenParquetOnly(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		ingestInto(t, d, Options{ParquetDir: dir}, club)
		if _, err := d.WriteParquetProgress(dir, progress); err != nil {
			t.Fatal(err)
		}
	case "annotate":
		d, err := Open(filepath.Join(c.Dir, "ponte.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if crash != nil { // a recalibration: every row changes
			if _, err := d.db.Exec(`UPDATE turn_evals SET loss = loss / 2`); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := d.WriteEvalsParquet(ctx, EvalsParquetPath(dir)); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("no action %q", c.Action)
	}
}

// TestParquetSwitchChild is the child of TestParquetSwitchKilled: it runs one case and
// ends at its crash point.
func TestParquetSwitchChild(t *testing.T) {
	spec := os.Getenv("PONTE_TEST_SWITCH_CASE")
	if spec == "" {
		t.Skip("run by TestParquetSwitchKilled")
	}
	var c switchCase
	if err := json.Unmarshal([]byte(spec), &c); err != nil {
		t.Fatal(err)
	}
	crash := func(point string) {
		if point == c.Point {
			os.Exit(killedExit)
		}
	}
	if setCrashHooks != nil {
		setCrashHooks(c.Point, c.TwoRenames)
	}
	runSwitchAction(t, c, crash)
}

// prepareSwitch makes the first state of action's folder in dir: autumn's games (and
// online's for a Parquet-only folder, club's for annotate, with 300 readings), the folder written, turn_evals.parquet in it but for a
// Parquet-only folder.
func prepareSwitch(t *testing.T, action, dir string) {
	pq := filepath.Join(dir, "pq")
	if action == "parquet-only" {
		d, err := OpenParquetOnly(pq)
		if err != nil {
			t.Fatal(err)
		}
		ingestInto(t, d, Options{ParquetDir: pq}, autumn, online)
		if _, err := d.WriteParquet(pq); err != nil {
			t.Fatal(err)
		}
		d.Close()
		return
	}
	d, err := Open(filepath.Join(dir, "ponte.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	in := autumn
	if action == "annotate" {
		in = club
	}
	ingestInto(t, d, Options{}, in)
	fillEvals(t, d, 300)
	if _, err := d.WriteParquet(pq); err != nil {
		t.Fatal(err)
	}
	if _, err := d.WriteEvalsParquet(context.Background(), EvalsParquetPath(pq)); err != nil {
		t.Fatal(err)
	}
}

// folderState is what a test reads of a Parquet folder: the state each file carries, its
// games, and the names in it.
type folderState struct {
	states map[string]string // file → stateKey
	games  int
	names  []string // not hidden
	marker *marker
}

func readFolderState(t *testing.T, dir string) folderState {
	t.Helper()
	fs := folderState{states: map[string]string{}}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("the folder: %v", err)
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			fs.names = append(fs.names, e.Name())
		}
	}
	for _, name := range append(slices.Clone(parquetFiles), EvalsParquetName) {
		if s, ok := parquetState(filepath.Join(dir, name)); ok {
			fs.states[name] = s
		}
	}
	if _, ok := fs.states["games.parquet"]; ok {
		fs.games = len(readParquet[GameRow](t, filepath.Join(dir, "games.parquet")))
	}
	fs.marker, err = readMarker(dir)
	if err != nil {
		t.Errorf("the marker: %v", err)
	}
	return fs
}

// copyTree copies the folder src (regular files and folders) to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o777)
		}
		return copyInto(p, filepath.Join(dst, rel))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// issue 31 finding 1: a kill during ingest's Parquet write left games.parquet of the new
// state beside turns.parquet and tags.parquet of the old; the same for --parquet-only
// shards; finding 12: a kill while turn_evals.parquet was written left a temporary file
// for good. A child process (the test binary again) writes the folder and ends itself
// (os.Exit) at each step of the switch in turn, with the exchange and with the two
// renames: the folder is then one whole state, old or new (once ponte's next open has
// put back a state left aside), and a rerun finishes the new one with nothing left over.
func TestParquetSwitchKilled(t *testing.T) {
	if os.Getenv("PONTE_TEST_SWITCH_CASE") != "" {
		t.Skip("in a child")
	}
	steps := map[string][]string{
		"ingest":       {"progress turns.parquet", "games.parquet", "tags.parquet", "written", "synced", "aside", "switched", "parent synced", "removing"},
		"parquet-only": {"progress turns.parquet", "games.parquet", "tags.parquet", "written", "synced", "aside", "switched", "parent synced", "removing"},
		"annotate":     {"turn_evals.parquet", "written", "synced", "aside", "switched", "parent synced", "removing"},
	}
	wantNames := map[string]string{
		"ingest":       "games.parquet tags.parquet turn_evals.parquet turns.parquet",
		"parquet-only": "games.parquet tags.parquet turns.parquet",
		"annotate":     "games.parquet tags.parquet turn_evals.parquet turns.parquet",
	}
	for _, action := range []string{"ingest", "parquet-only", "annotate"} {
		template := t.TempDir()
		prepareSwitch(t, action, template)
		old := readFolderState(t, filepath.Join(template, "pq"))
		for _, twoRenames := range []bool{false, true} {
			for _, point := range steps[action] {
				if point == "aside" && !twoRenames {
					continue // no such step in an exchange
				}
				how := "exchange"
				if twoRenames {
					how = "two renames"
				}
				t.Run(fmt.Sprintf("%s/%s/%s", action, how, point), func(t *testing.T) {
					if setCrashHooks == nil && point != "progress turns.parquet" {
						t.Skip("no crash hooks in this build")
					}
					c := switchCase{Action: action, Point: point, TwoRenames: twoRenames, Dir: filepath.Join(t.TempDir(), "w")}
					copyTree(t, template, c.Dir)
					spec, _ := json.Marshal(c)
					cmd := exec.Command(os.Args[0], "-test.run=^TestParquetSwitchChild$", "-test.count=1")
					cmd.Env = append(os.Environ(), "PONTE_TEST_SWITCH_CASE="+string(spec))
					out, err := cmd.CombinedOutput()
					if ee, ok := errors.AsType[*exec.ExitError](err); !ok || ee.ExitCode() != killedExit {
						t.Fatalf("the child did not stop at %s: %v\n%s", point, err, out)
					}
					dir := filepath.Join(c.Dir, "pq")
					// ponte's next open of the folder (a claim, an ingest, annotate).
					if _, _, _, err := parquetFolder(dir); err != nil && action != "annotate" {
						t.Fatalf("the folder after the kill: %v", err)
					}
					sweepSwitches(dir)
					got := readFolderState(t, dir)
					checkOneState(t, action, got, old)
					if names := strings.Join(got.names, " "); names != wantNames[action] {
						t.Errorf("after the kill the folder holds %s, want %s", names, wantNames[action])
					}

					runSwitchAction(t, c, nil)
					again := readFolderState(t, dir)
					checkOneState(t, action, again, old)
					if names := strings.Join(again.names, " "); names != wantNames[action] {
						t.Errorf("after the rerun the folder holds %s, want %s", names, wantNames[action])
					}
					switch action {
					case "annotate":
						if again.states[EvalsParquetName] == old.states[EvalsParquetName] {
							t.Error("the rerun did not write the new turn_evals.parquet")
						}
					default:
						if again.games == old.games {
							t.Errorf("the rerun left the old state (%d games)", again.games)
						}
					}
					if left := hiddenFiles(t, dir); len(left) > 0 {
						t.Errorf("left after the rerun: %v", left)
					}
					if action == "parquet-only" {
						if _, err := os.Lstat(filepath.Join(c.Dir, ".pq"+parquetOnlyDB)); err == nil {
							t.Error("the temporary database of the killed run is left after the rerun")
						}
					}
				})
			}
		}
	}
}

// checkOneState checks that the folder state got is one whole state, old's or a new one:
// games, turns and tags of one database state, the marker, turn_evals.parquet of the
// folder (old's for an ingest, any for annotate, with games, turns and tags old's).
func checkOneState(t *testing.T, action string, got, old folderState) {
	t.Helper()
	g := got.states["games.parquet"]
	if g == "" || got.states["turns.parquet"] != g || got.states["tags.parquet"] != g {
		t.Errorf("the folder mixes states:\n games %q\n turns %q\n tags  %q", g, got.states["turns.parquet"], got.states["tags.parquet"])
	}
	if got.marker == nil || got.marker.DatabaseID != old.marker.DatabaseID {
		t.Errorf("marker %+v, want one naming %s", got.marker, old.marker.DatabaseID)
	}
	switch action {
	case "annotate":
		if g != old.states["games.parquet"] {
			t.Error("annotate changed games.parquet")
		}
		if got.states[EvalsParquetName] == "" {
			t.Error("no turn_evals.parquet")
		}
	case "ingest":
		if got.states[EvalsParquetName] != old.states[EvalsParquetName] {
			t.Error("turn_evals.parquet is not carried over")
		}
		fallthrough
	default:
		if g == old.states["games.parquet"] && got.games != old.games {
			t.Errorf("games.parquet of the old state holds %d games, not %d", got.games, old.games)
		}
	}
}
