package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/ponte/ponte/internal/outfile"
)

// A report is written into a temporary folder, named ".NAME.tmp-PID-RANDOM" (PID: the
// writing process), beside its own folder when that does not exist yet, and renamed into
// place at the end; else inside it, named ".ponte-report.tmp-PID-RANDOM", whose files are
// moved into place at the end (outfile.InstallFolder: each trades places with the earlier
// one, or, where that is not supported, the earlier one is set aside meanwhile into that
// name + ".old"). A run killed before the end leaves these behind; the next report into
// the same folder removes them.

// tempRE matches the temporary folders of this version: NAME, the pid, and ".old" for an
// earlier report set aside.
var tempRE = regexp.MustCompile(`^\..+\.tmp-([0-9]+)-[0-9]+(\.old)?$`)

// oldTempRE matches those of earlier versions, which did not name the pid: ".NAME.tmp-RANDOM".
var oldTempRE = regexp.MustCompile(`^\..+\.tmp-[0-9]+(\.old)?$`)

// reportNames are the names a report's folder holds.
var reportNames = map[string]bool{marker: true, "games": true, "index.html": true, "style.css": true, "fonts.css": true, ".pages.part": true}

// inUse are the temporary folders that Write calls of this process are writing now.
var inUse sync.Map

// Where makeTemp makes the temporary folder.
const (
	beside = iota // in the folder's parent, to be renamed to the folder
	inside        // in the folder itself, which exists: install moves its files out
)

// makeTemp makes the temporary folder that the report dir is written into: beside dir,
// named ".NAME.tmp-PID-RANDOM", or inside it, named ".ponte-report.tmp-PID-RANDOM".
func makeTemp(dir string, where int) (string, error) {
	clean := filepath.Clean(dir)
	in, name := filepath.Dir(clean), filepath.Base(clean)
	if where == inside {
		in, name = clean, "ponte-report"
	}
	tmp, err := os.MkdirTemp(in, "."+name+".tmp-"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", err
	}
	inUse.Store(tmp, true)
	inUse.Store(tmp+".old", true)
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.Remove(tmp)
		releaseTemp(tmp)
		return "", err
	}
	return tmp, nil
}

// releaseTemp says that this process no longer writes into tmp.
func releaseTemp(tmp string) {
	inUse.Delete(tmp)
	inUse.Delete(tmp + ".old")
}

// removeStale removes the folders in parent that runs of Write killed before their end
// left behind, and returns their names. A folder is removed only when its name has the
// exact form of such a folder, it is a folder (not a link), it holds nothing but what a
// report holds (the marker, which Write writes first, or nothing at all), and the run that
// made it is over: the process its name gives is not running (or is this very process and
// no Write of this process uses it: a killed run of the same pid, as in a container where
// every run is pid 1). A folder of an earlier version of ponte, which did not name the pid,
// is removed when it holds only a report's files and was last changed before start. A
// folder that cannot be read or removed is left alone: removing leftovers is a courtesy,
// never a reason to fail.
func removeStale(parent string, start time.Time) []string {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || (!tempRE.MatchString(name) && !oldTempRE.MatchString(name)) {
			continue
		}
		path := filepath.Join(parent, name)
		if _, busy := inUse.Load(path); busy || !stale(path, name, start) {
			continue
		}
		if err := os.RemoveAll(path); err == nil {
			removed = append(removed, path)
		}
	}
	return removed
}

// stale reports whether the folder path, named name, was left by a run that is over.
func stale(path, name string, start time.Time) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.IsDir() {
		return false
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return false
	}
	hasMarker := false
	for _, e := range entries {
		if !reportNames[e.Name()] {
			return false
		}
		if e.Name() == marker && e.Type().IsRegular() {
			hasMarker = true
		}
	}
	if m := tempRE.FindStringSubmatch(name); m != nil {
		if !hasMarker && len(entries) > 0 {
			return false
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil {
			return false
		}
		return pid == os.Getpid() || !outfile.ProcessAlive(pid)
	}
	return fi.ModTime().Before(start)
}
