package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ponte/ponte/internal/outfile"
)

// A Parquet folder changes as a whole (docs/parquet.md, "How a folder changes"): its files
// (games, turns, tags, turn_evals and the marker) are of one state of the database, or of
// the state before, never a mix. A new state is written into a hidden staging folder
// beside the live one, .NAME.ponte-stage-PID-RANDOM, the files it does not rewrite
// hard-linked in from the live folder; every file and the staging folder are synced; then
// the two folders trade names in one step (renameat2 RENAME_EXCHANGE), so that the live
// name holds the new state and the staging name the old one, which is removed. Where the
// exchange is not supported, the live folder is first renamed .NAME.ponte-old-PID-RANDOM,
// then the staging folder takes its name: a run killed between the two finds no live
// folder and its old one, which the next run (sweepSwitches) renames back.
//
// A reader that opens the folder once and its files relative to it (openFolder) sees one
// state: the files of the folder it opened, whatever name it has since.

// folderSwitch is a new state of the Parquet folder live being written into stage.
type folderSwitch struct {
	live  string // the live folder, its symbolic links followed
	stage string // the staging folder
	done  bool   // committed or aborted
}

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

// stages are the staging and old folders this process is writing now: a sweep leaves
// them alone even if another run had the same process id.
var stages sync.Map

// switchName matches the staging and old folders of the live folder NAME, with the id of
// the process that made them.
func switchName(name string) *regexp.Regexp {
	return regexp.MustCompile(`^\.` + regexp.QuoteMeta(name) + `\.ponte-(stage|old)-([0-9]+)-[0-9a-f]{8}$`)
}

// resolveFolder returns dir with its symbolic links followed: a link to a folder is that
// folder, which is the one switched. A dir that does not exist is itself; "." and ".."
// are made absolute.
func resolveFolder(dir string) (string, error) {
	dir = filepath.Clean(dir)
	if b := filepath.Base(dir); b == "." || b == ".." {
		// "." has no name in its parent to switch: the absolute path has.
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", err
		}
		dir = abs
	}
	info, err := os.Lstat(dir)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return dir, nil
	}
	return filepath.EvalSymlinks(dir)
}

// newSwitch starts a new state of the Parquet folder dir: it sweeps what killed runs left
// (sweepSwitches), then makes the staging folder beside dir (and dir's parent if needed),
// with dir's permissions.
func newSwitch(dir string) (*folderSwitch, error) {
	live, err := resolveFolder(dir)
	if err != nil {
		return nil, fmt.Errorf("Parquet folder %s: %w", dir, unwrapPath(err))
	}
	if _, err := sweepSwitches(live); err != nil {
		return nil, err
	}
	parent, name := filepath.Split(live)
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o777); err != nil {
		return nil, fmt.Errorf("Parquet folder %s: %w", dir, unwrapPath(err))
	}
	s := &folderSwitch{live: live}
	for range 100 {
		s.stage = filepath.Join(parent, fmt.Sprintf(".%s.ponte-stage-%d-%08x", name, os.Getpid(), rand.Uint32()))
		if err = os.Mkdir(s.stage, 0o777); !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("Parquet folder %s: cannot make its staging folder beside it: %w", dir, unwrapPath(err))
	}
	stages.Store(s.stage, true)
	if info, err := os.Stat(live); err == nil && info.IsDir() {
		os.Chmod(s.stage, info.Mode().Perm())
	}
	return s, nil
}

// path is the path of the file name in the new state.
func (s *folderSwitch) path(name string) string { return filepath.Join(s.stage, name) }

// carry brings into the new state every file of the live folder but those it rewrites
// (rewritten) and those already in it: hard-linked (copied where links are not supported), a
// symbolic link made again. Temporary files of older ponte versions and a Parquet-only
// ingest's database are not carried, and so are gone once the folder switches. Anything
// else (a folder, a FIFO) cannot be carried: an error names it, and nothing changes.
func (s *folderSwitch) carry(rewritten ...string) error {
	entries, err := os.ReadDir(s.live)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("Parquet folder %s: %w", s.live, unwrapPath(err))
	}
	for _, e := range entries {
		name := e.Name()
		if slices.Contains(rewritten, name) || legacyTemp(name) {
			continue
		}
		if _, err := os.Lstat(s.path(name)); err == nil {
			continue // written in the new state
		}
		src, dst := filepath.Join(s.live, name), s.path(name)
		switch t := e.Type(); {
		case t.IsRegular():
			if err := os.Link(src, dst); err != nil {
				err = copyInto(src, dst)
				if err != nil {
					return fmt.Errorf("Parquet folder %s: carrying %s into the new state: %w", s.live, name, unwrapPath(err))
				}
			}
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(src)
			if err == nil {
				err = os.Symlink(target, dst)
			}
			if err != nil {
				return fmt.Errorf("Parquet folder %s: carrying %s into the new state: %w", s.live, name, unwrapPath(err))
			}
		default:
			return fmt.Errorf("%w: %s holds %s, which is %s: ponte replaces the folder whole and cannot carry it; move it out", ErrParquetDir, s.live, name, fileType(t))
		}
	}
	return nil
}

// copyInto copies the regular file src to dst, synced.
func copyInto(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm())
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// legacyTemp reports whether name is a temporary file that an older ponte wrote inside
// the folder (".games.parquet.0123abcd.tmp", ".turn_evals.parquet.…", ".ponte-database.…")
// or the database of a Parquet-only ingest it kept there (".ponte-ingest.db" and its
// -wal, -shm, -journal files).
func legacyTemp(name string) bool {
	return legacyTempName.MatchString(name) || strings.HasPrefix(name, parquetOnlyDB)
}

var legacyTempName = regexp.MustCompile(`^\.((games|turns|tags|turn_evals)\.parquet|ponte-database)\.[0-9a-f]{8}\.tmp$`)

// commit switches the folder to the new state: it syncs the staging folder, trades it for
// the live one (or renames it into place where there is none), syncs their parent and
// removes the old state. Once the live name holds the new state, an error removing the
// old one is not the switch's: the next run sweeps it.
func (s *folderSwitch) commit() error {
	if s.done {
		return errors.New("the Parquet folder's new state was already switched in or dropped")
	}
	s.done = true
	defer stages.Delete(s.stage)
	step("written")
	if err := syncDir(s.stage); err != nil {
		s.drop(s.stage)
		return fmt.Errorf("Parquet folder %s: %w", s.live, err)
	}
	step("synced")
	parent := filepath.Dir(s.live)
	old := ""
	err := os.Rename(s.stage, s.live)
	info, lerr := os.Lstat(s.live)
	switch {
	case err == nil:
		// There was no live folder, or an empty one that the rename replaced.
	case lerr != nil || !info.IsDir(): // not a folder in the way: the rename failed for another reason
		s.drop(s.stage)
		return fmt.Errorf("Parquet folder %s: %w", s.live, unwrapPath(err))
	case !noExchange && exchange(s.stage, s.live) == nil:
		old = s.stage // which now holds the old state
	default:
		old = strings.Replace(s.stage, ".ponte-stage-", ".ponte-old-", 1)
		stages.Store(old, true)
		defer stages.Delete(old)
		if err := os.Rename(s.live, old); err != nil {
			s.drop(s.stage)
			return fmt.Errorf("Parquet folder %s: %w", s.live, unwrapPath(err))
		}
		step("aside")
		if err := os.Rename(s.stage, s.live); err != nil {
			if rerr := os.Rename(old, s.live); rerr != nil {
				return fmt.Errorf("Parquet folder %s: %w; and putting the folder back from %s: %v (the next run does)", s.live, unwrapPath(err), old, unwrapPath(rerr))
			}
			s.drop(s.stage)
			return fmt.Errorf("Parquet folder %s: %w", s.live, unwrapPath(err))
		}
	}
	step("switched")
	syncDir(parent) // a folder that cannot be synced keeps no more
	step("parent synced")
	if old != "" {
		s.drop(old)
	}
	return nil
}

// drop removes the folder dir of a state: its files one by one, then the folder.
func (s *folderSwitch) drop(dir string) {
	entries, _ := os.ReadDir(dir)
	for i, e := range entries {
		os.Remove(filepath.Join(dir, e.Name()))
		if i == 0 {
			step("removing")
		}
	}
	os.Remove(dir)
}

// abort drops the new state, leaving the live folder as it was; nothing after commit.
func (s *folderSwitch) abort() {
	if s == nil || s.done {
		return
	}
	s.done = true
	s.drop(s.stage)
	stages.Delete(s.stage)
}

// sweepSwitches makes the Parquet folder dir whole again after a killed run, and removes
// what such runs left beside it: if dir is missing and a run killed between the two
// renames left its old state aside, that is renamed back; then the staging and old
// folders of runs that are over are removed. Folders of a run still going (another
// process, or this one) are left. It returns what it removed or put back.
func sweepSwitches(dir string) ([]string, error) {
	live, err := resolveFolder(dir)
	if err != nil {
		return nil, nil // a link to nothing: parquetFolder says so
	}
	parent, name := filepath.Split(live)
	if parent == "" {
		parent = "."
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		return nil, nil // no parent: nothing was left
	}
	re := switchName(name)
	var stale, olds []string
	for _, e := range entries {
		m := re.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		path := filepath.Join(parent, e.Name())
		pid, _ := strconv.Atoi(m[2])
		if _, busy := stages.Load(path); busy || (pid != os.Getpid() && outfile.ProcessAlive(pid)) {
			continue
		}
		if m[1] == "old" {
			olds = append(olds, path)
		}
		stale = append(stale, path)
	}
	var done []string
	if _, err := os.Lstat(live); errors.Is(err, fs.ErrNotExist) && len(olds) > 0 {
		// Killed between the two renames: the old state goes back.
		if err := os.Rename(olds[0], live); err != nil {
			return nil, fmt.Errorf("Parquet folder %s: putting back its state left aside as %s by a run that was stopped: %w", live, olds[0], unwrapPath(err))
		}
		syncDir(parent)
		done = append(done, olds[0])
		stale = slices.DeleteFunc(stale, func(p string) bool { return p == olds[0] })
	}
	for _, p := range stale {
		if err := os.RemoveAll(p); err == nil {
			done = append(done, p)
		}
	}
	return done, nil
}

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

// syncDir syncs the folder dir, so that what was renamed in it is on disk. A file system
// that cannot sync a folder (EINVAL) is not an error: it keeps no more.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return unwrapPath(err)
	}
	err = d.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, errors.ErrUnsupported) {
		err = nil
	}
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

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
