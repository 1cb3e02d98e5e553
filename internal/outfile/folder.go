package outfile

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
)

// A Folder is ponte's one atomic replacement of a folder, as File is of a file: a new
// state of the folder LIVE is written into a hidden staging folder beside it,
// .LIVE.ponte-stage-PID-RANDOM, the files it does not rewrite carried in from the live
// folder (Carry: hard-linked, or copied); the staging folder is synced; then the two
// folders trade names in one step (renameat2 RENAME_EXCHANGE), so that the live name holds
// the new state and the staging name the old one, which is removed. Where the exchange is
// not supported, the live folder is first renamed .LIVE.ponte-old-PID-RANDOM, then the
// staging folder takes its name: a run killed between the two finds no live folder and
// its old one, which the next run (SweepFolder, which NewFolder calls) renames back.
//
// Files written into the staging folder need no temporary names of their own: nothing
// reads the staging folder, and a run that fails drops it whole (Abort).
type Folder struct {
	live  string // the live folder, its symbolic links followed
	stage string // the staging folder
	done  bool   // committed or aborted
	opts  FolderOptions
}

// FolderOptions say how a Folder names its folder and what it does not carry.
type FolderOptions struct {
	// Kind names the folder in messages: "Parquet folder".
	Kind string
	// Refused is the sentinel that the error of an entry Carry cannot carry (a folder, a
	// FIFO) wraps; ErrCannotCarry when nil.
	Refused error
	// Skip, when not nil, names the entries of the live folder that Carry leaves out (and
	// that are so gone once the folder switches): leftovers of older versions.
	Skip func(name string) bool
	// Step, when not nil, is called at each step of Commit with its name ("written",
	// "synced", "aside", "switched", "parent synced", "removing"): the tests' crash points.
	Step func(step string)
	// NoExchange makes Commit rename twice, as where the exchange is not supported (tests).
	NoExchange bool
}

// ErrCannotCarry is wrapped by the error of an entry that Carry cannot carry into the new
// state, when FolderOptions.Refused is nil.
var ErrCannotCarry = errors.New("cannot carry it into the folder's new state")

func (o *FolderOptions) step(name string) {
	if o.Step != nil {
		o.Step(name)
	}
}

func (o *FolderOptions) kind() string {
	if o.Kind == "" {
		return "folder"
	}
	return o.Kind
}

// folders are the staging and old folders this process is writing now: a sweep leaves
// them alone even if another run had the same process id.
var folders sync.Map

// ForgetFolders forgets the staging and old folders this process is writing, as when the
// process that wrote them is over: a test's killed run.
func ForgetFolders() { folders.Clear() }

// switchName matches the staging and old folders of the live folder NAME, with the id of
// the process that made them.
func switchName(name string) *regexp.Regexp {
	return regexp.MustCompile(`^\.` + regexp.QuoteMeta(name) + `\.ponte-(stage|old)-([0-9]+)-[0-9a-f]{8}$`)
}

// stageName matches a staging folder, with the name of its live folder.
var stageName = regexp.MustCompile(`^\.(.+)\.ponte-stage-[0-9]+-[0-9a-f]{8}$`)

// LivePath names the file path of a folder's new state (a Folder's Path) by its name in
// the live folder, for messages: the staging folder is an implementation's detail. Any
// other path is itself.
func LivePath(path string) string {
	dir, base := filepath.Split(path)
	parent, stage := filepath.Split(filepath.Clean(dir))
	if m := stageName.FindStringSubmatch(stage); m != nil {
		return filepath.Join(parent, m[1], base)
	}
	return path
}

// ResolveFolder returns dir with its symbolic links followed: a link to a folder is that
// folder, which is the one switched. A dir that does not exist is itself; "." and ".."
// are made absolute.
func ResolveFolder(dir string) (string, error) {
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

// NewFolder starts a new state of the folder dir: it sweeps what killed runs left
// (SweepFolder), then makes the staging folder beside dir (and dir's parent if needed),
// with dir's permissions.
func NewFolder(dir string, opts FolderOptions) (*Folder, error) {
	live, err := ResolveFolder(dir)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", opts.kind(), dir, unwrapPath(err))
	}
	if _, err := SweepFolder(live, opts); err != nil {
		return nil, err
	}
	parent, name := filepath.Split(live)
	if parent == "" {
		parent = "."
	}
	if err := os.MkdirAll(parent, 0o777); err != nil {
		return nil, fmt.Errorf("%s %s: %w", opts.kind(), dir, unwrapPath(err))
	}
	s := &Folder{live: live, opts: opts}
	for range 100 {
		s.stage = filepath.Join(parent, fmt.Sprintf(".%s.ponte-stage-%d-%08x", name, os.Getpid(), rand.Uint32()))
		if err = os.Mkdir(s.stage, 0o777); !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: cannot make its staging folder beside it: %w", opts.kind(), dir, unwrapPath(err))
	}
	folders.Store(s.stage, true)
	if info, err := os.Stat(live); err == nil && info.IsDir() {
		os.Chmod(s.stage, info.Mode().Perm())
	}
	return s, nil
}

// Live is the live folder, its symbolic links followed.
func (s *Folder) Live() string { return s.live }

// Stage is the staging folder the new state is written into.
func (s *Folder) Stage() string { return s.stage }

// Path is the path of the file name in the new state.
func (s *Folder) Path(name string) string { return filepath.Join(s.stage, name) }

// Create creates the file name in the new state, to be written whole; an error if it is
// already there (carried in: writing it would change the live state's file too).
func (s *Folder) Create(name string) (*os.File, error) {
	return os.OpenFile(s.Path(name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
}

// Carry brings into the new state every file of the live folder but those it rewrites
// (rewritten), those already in it and those FolderOptions.Skip names: hard-linked
// (copied where links are not supported), a symbolic link made again. Anything else (a
// folder, a FIFO) cannot be carried: an error names it, and nothing changes.
func (s *Folder) Carry(rewritten ...string) error {
	entries, err := os.ReadDir(s.live)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", s.opts.kind(), s.live, unwrapPath(err))
	}
	for _, e := range entries {
		name := e.Name()
		if slices.Contains(rewritten, name) || (s.opts.Skip != nil && s.opts.Skip(name)) {
			continue
		}
		if _, err := os.Lstat(s.Path(name)); err == nil {
			continue // written in the new state
		}
		src, dst := filepath.Join(s.live, name), s.Path(name)
		switch t := e.Type(); {
		case t.IsRegular():
			if err := os.Link(src, dst); err != nil {
				err = copyInto(src, dst)
				if err != nil {
					return fmt.Errorf("%s %s: carrying %s into the new state: %w", s.opts.kind(), s.live, name, unwrapPath(err))
				}
			}
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(src)
			if err == nil {
				err = os.Symlink(target, dst)
			}
			if err != nil {
				return fmt.Errorf("%s %s: carrying %s into the new state: %w", s.opts.kind(), s.live, name, unwrapPath(err))
			}
		default:
			refused := s.opts.Refused
			if refused == nil {
				refused = ErrCannotCarry
			}
			return fmt.Errorf("%w: %s holds %s, which is %s: ponte replaces the folder whole and cannot carry it; move it out", refused, s.live, name, FileType(t))
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

// FileType names the kind of a file: "a regular file", "a folder", "a FIFO", ….
func FileType(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}

// Commit switches the folder to the new state: it syncs the staging folder, trades it for
// the live one (or renames it into place where there is none), syncs their parent and
// removes the old state. Once the live name holds the new state, an error removing the
// old one is not the switch's: the next run sweeps it.
func (s *Folder) Commit() error {
	if s.done {
		return fmt.Errorf("the %s's new state was already switched in or dropped", s.opts.kind())
	}
	s.done = true
	defer folders.Delete(s.stage)
	s.opts.step("written")
	if err := syncDir(s.stage); err != nil {
		s.drop(s.stage)
		return fmt.Errorf("%s %s: %w", s.opts.kind(), s.live, unwrapPath(err))
	}
	s.opts.step("synced")
	parent := filepath.Dir(s.live)
	old := ""
	err := os.Rename(s.stage, s.live)
	info, lerr := os.Lstat(s.live)
	switch {
	case err == nil:
		// There was no live folder, or an empty one that the rename replaced.
	case lerr != nil || !info.IsDir(): // not a folder in the way: the rename failed for another reason
		s.drop(s.stage)
		return fmt.Errorf("%s %s: %w", s.opts.kind(), s.live, unwrapPath(err))
	case !s.opts.NoExchange && exchange(s.stage, s.live) == nil:
		old = s.stage // which now holds the old state
	default:
		old = strings.Replace(s.stage, ".ponte-stage-", ".ponte-old-", 1)
		folders.Store(old, true)
		defer folders.Delete(old)
		if err := os.Rename(s.live, old); err != nil {
			s.drop(s.stage)
			return fmt.Errorf("%s %s: %w", s.opts.kind(), s.live, unwrapPath(err))
		}
		s.opts.step("aside")
		if err := os.Rename(s.stage, s.live); err != nil {
			if rerr := os.Rename(old, s.live); rerr != nil {
				return fmt.Errorf("%s %s: %w; and putting the folder back from %s: %v (the next run does)", s.opts.kind(), s.live, unwrapPath(err), old, unwrapPath(rerr))
			}
			s.drop(s.stage)
			return fmt.Errorf("%s %s: %w", s.opts.kind(), s.live, unwrapPath(err))
		}
	}
	s.opts.step("switched")
	syncDir(parent) // a folder that cannot be synced keeps no more
	s.opts.step("parent synced")
	if old != "" {
		s.drop(old)
	}
	return nil
}

// drop removes the folder dir of a state: its files one by one, then the folder.
func (s *Folder) drop(dir string) {
	entries, _ := os.ReadDir(dir)
	for i, e := range entries {
		os.Remove(filepath.Join(dir, e.Name()))
		if i == 0 {
			s.opts.step("removing")
		}
	}
	os.Remove(dir)
}

// Abort drops the new state, leaving the live folder as it was; nothing after Commit, or
// on a nil Folder.
func (s *Folder) Abort() {
	if s == nil || s.done {
		return
	}
	s.done = true
	s.drop(s.stage)
	folders.Delete(s.stage)
}

// SweepFolder makes the folder dir whole again after a killed run, and removes what such
// runs left beside it: if dir is missing and a run killed between the two renames left
// its old state aside, that is renamed back; then the staging and old folders of runs
// that are over are removed. Folders of a run still going (another process, or this one)
// are left. It returns what it removed or put back; opts.Kind names the folder in its
// error.
func SweepFolder(dir string, opts FolderOptions) ([]string, error) {
	live, err := ResolveFolder(dir)
	if err != nil {
		return nil, nil // a link to nothing: the caller says so when it opens it
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
		if _, busy := folders.Load(path); busy || (pid != os.Getpid() && ProcessAlive(pid)) {
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
			return nil, fmt.Errorf("%s %s: putting back its state left aside as %s by a run that was stopped: %w", opts.kind(), live, olds[0], unwrapPath(err))
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
