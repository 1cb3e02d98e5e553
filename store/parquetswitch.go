package store

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/ponte/ponte/internal/outfile"
)

// A Parquet folder changes as a whole (docs/parquet.md, "How a folder changes"): its files
// (games, turns, tags, turn_evals and the marker) are of one state of the database, or of
// the state before, never a mix. A new state is written into a staging folder and switched
// in whole by outfile.Folder, ponte's one atomic replacement of a folder; the files are
// written straight into the staging folder, under their own names.
//
// A reader that opens the folder once and its files relative to it (openFolder) sees one
// state: the files of the folder it opened, whatever name it has since.

// folderSwitch is a new state of a Parquet folder being written.
type folderSwitch = outfile.Folder

// switchStep, when not nil, is called at each step of a switch with the step's name: the
// tests' crash points (TestParquetSwitchKilled).
var switchStep func(step string)

func step(name string) {
	if switchStep != nil {
		switchStep(name)
	}
}

// noExchange makes switches use the two renames, as where the exchange is not supported
// (tests).
var noExchange bool

// switchOptions are the options of a Parquet folder's switch: its name in messages, the
// error of a file it cannot carry (ErrParquetDir), the leftovers of older versions it does
// not carry (legacyTemp) and the tests' hooks.
func switchOptions() outfile.FolderOptions {
	return outfile.FolderOptions{Kind: "Parquet folder", Refused: ErrParquetDir, Skip: legacyTemp, Step: step, NoExchange: noExchange}
}

// resolveFolder returns dir with its symbolic links followed (outfile.ResolveFolder).
func resolveFolder(dir string) (string, error) { return outfile.ResolveFolder(dir) }

// newSwitch starts a new state of the Parquet folder dir (outfile.NewFolder): it sweeps
// what killed runs left, then makes the staging folder beside dir.
func newSwitch(dir string) (*folderSwitch, error) { return outfile.NewFolder(dir, switchOptions()) }

// sweepSwitches makes the Parquet folder dir whole again after a killed run and removes
// what such runs left beside it (outfile.SweepFolder); it returns what it removed or put
// back.
func sweepSwitches(dir string) ([]string, error) { return outfile.SweepFolder(dir, switchOptions()) }

// legacyTemp reports whether name is a temporary file that an older ponte wrote inside
// the folder (".games.parquet.0123abcd.tmp", ".turn_evals.parquet.…", ".ponte-database.…")
// or the database of a Parquet-only ingest it kept there (".ponte-ingest.db" and its
// -wal, -shm, -journal files).
func legacyTemp(name string) bool {
	return legacyTempName.MatchString(name) || strings.HasPrefix(name, parquetOnlyDB)
}

var legacyTempName = regexp.MustCompile(`^\.((games|turns|tags|turn_evals)\.parquet|ponte-database)\.[0-9a-f]{8}\.tmp$`)

// sweepLegacy removes from the folder dir the temporary files that older ponte versions
// wrote into it and left when killed (legacyTemp), last changed before this process
// started, and returns their paths. (An ingest leaves those of its own files to
// RemoveStaleTemps, which names them; a switch does not carry any of them over.)
func sweepLegacy(dir string) []string {
	var done []string
	if lt, err := os.ReadDir(dir); err == nil {
		for _, e := range lt {
			if !e.Type().IsRegular() || !legacyTempName.MatchString(e.Name()) {
				continue
			}
			if info, err := e.Info(); err == nil && info.ModTime().Before(processStart) {
				p := filepath.Join(dir, e.Name())
				if os.Remove(p) == nil {
					done = append(done, p)
				}
			}
		}
	}
	return done
}

// processStart is when this process started, about: a temporary file changed since may be
// one being written.
var processStart = time.Now()

// folderView is a Parquet folder opened once: its files are opened relative to it, so
// that they are of one state even if the folder switches meanwhile.
type folderView struct{ d *os.File }

// openFolder opens the folder dir for reading its files.
func openFolder(dir string) (*folderView, error) {
	d, err := openDir(dir)
	if err != nil {
		return nil, err
	}
	return &folderView{d}, nil
}

func (v *folderView) close() { v.d.Close() }

// open opens the file name of the folder.
func (v *folderView) open(name string) (*os.File, error) { return openIn(v.d, name) }

// SweepParquetDir makes the Parquet folder dir whole again after a run killed while it
// switched the folder, and removes what killed runs left beside it (sweepSwitches); it
// returns what it put back or removed. Writers sweep on their own: a command that looks
// at the folder before writing into it (ponte annotate) calls it first.
func SweepParquetDir(dir string) ([]string, error) {
	return sweepSwitches(dir)
}
