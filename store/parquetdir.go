package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/ponte/ponte/internal/outfile"
)

// ParquetDirFor returns the default Parquet folder of the database at path: beside it,
// named after it with the extension .parquet in place of its own (ponte.db →
// ponte.parquet, club/big.db → club/big.parquet, games → games.parquet). Each database
// has its own, so that ingesting one never overwrites another's files.
func ParquetDirFor(path string) string {
	dir, base := filepath.Split(path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	if stem == "" {
		stem = base // ".db"
	}
	name := stem + ".parquet"
	if name == base { // a database named x.parquet
		name = base + ".parquet"
	}
	return filepath.Join(dir, name)
}

// MarkerName is the name of the file, in a Parquet folder, that says which database the
// folder's files were written from (a hidden file: `ponte ingest` of a directory does not
// read it, and globs such as *.parquet do not meet it).
const MarkerName = ".ponte-database.json"

// marker is what MarkerName holds.
type marker struct {
	Note       string `json:"note"`
	Database   string `json:"database"`    // the database's absolute path when last written
	DatabaseID string `json:"database_id"` // its identity (DB.ID), which survives a move
	Written    string `json:"written"`     // when (UTC, RFC 3339)
}

const markerNote = "The Parquet files of this folder were written by ponte from the database named here. ponte writes into this folder from that database only."

// ErrParquetDir is returned (wrapped, with what to do) by ClaimParquet and WriteParquet for
// a folder that is not the database's to write: written from another database, holding
// files ponte did not write, or not a folder.
var ErrParquetDir = errors.New("not this database's Parquet folder")

// ClaimParquet checks that the database may write its Parquet files into dir, and says why
// not (an error wrapping ErrParquetDir, naming the other database or the files in the
// way, and what to do). It may when dir does not exist, is empty (hidden files aside), or
// is this database's: its marker file (MarkerName) names the database's identity, which
// survives a move of the database (the marker then gets the new path). It may not when
// the marker names another database (a copy of the same database is the same), when dir
// holds files other than games.parquet, turns.parquet and tags.parquet (hidden files are left alone
// and not counted: the temporary files of a write, a desktop's own), or when it holds
// Parquet files without a marker, written by a ponte older than markers, unless those
// are current for this database (ParquetCurrent's fingerprint): the folder is then
// adopted, and the marker written.
func (d *DB) ClaimParquet(dir string) error {
	return dbError(d.path, d.claimParquet(dir))
}

// claimParquet is ClaimParquet.
func (d *DB) claimParquet(dir string) error {
	if d.parquetOnly != "" {
		return claimParquetOnly(dir)
	}
	files, m, exists, err := parquetFolder(dir)
	if err != nil || !exists {
		return err
	}
	switch {
	case m != nil && m.DatabaseID == d.id:
		if abs, _ := filepath.Abs(d.path); m.Database != abs {
			return d.writeMarker(dir) // the database was moved
		}
		return nil
	case m != nil && m.DatabaseID == ParquetOnlyID:
		return parquetOnlyFolder(dir, m)
	case m != nil:
		other := "another database, " + m.Database
		if abs, _ := filepath.Abs(d.path); m.Database == abs {
			other = "an earlier database at this same path, " + m.Database + ", not this one (made since)"
		}
		return fmt.Errorf("%w: %s holds the Parquet files of %s, written %s: they are not overwritten; write this database's files to another folder with --parquet DIR, or remove %s first",
			ErrParquetDir, dir, other, m.Written, dir)
	case len(files) == 0:
		return nil
	}
	// Files written before markers: this database's only if they are current for it.
	if current, err := d.filesCurrent(dir); err != nil {
		return err
	} else if current {
		if empty, err := d.Empty(); err != nil {
			return err
		} else if !empty {
			return d.writeMarker(dir)
		}
	}
	return fmt.Errorf("%w: %s holds Parquet files that do not say which database they were written from (an older ponte wrote them) and are not those of %s as it is: they are not overwritten; remove %s first, or give --parquet another folder",
		ErrParquetDir, dir, d.path, dir)
}

// parquetFolder looks at dir, a Parquet folder to write into: whether it exists, the
// Parquet files it holds (hidden files are left alone and not counted: the temporary files
// of a write, a desktop's own) and its marker (nil for none). It is an error wrapping
// ErrParquetDir, naming them, when dir is not a folder (a file, a device, a FIFO, a
// symbolic link to one of these or to nothing), holds other files, which ponte did not
// write (a games.parquet that is not a regular file among them: ponte would replace
// it), or a marker that cannot be read. A symbolic link to a folder is that folder.
func parquetFolder(dir string) (files []string, m *marker, exists bool, err error) {
	if _, err := sweepSwitches(dir); err != nil { // a folder a killed run left aside is back
		return nil, nil, false, err
	}
	info, err := os.Lstat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil, false, nil
	case err != nil:
		return nil, nil, false, fmt.Errorf("Parquet folder %s: %w", dir, unwrapPath(err))
	}
	if info.Mode()&os.ModeSymlink != 0 {
		target, _ := os.Readlink(dir)
		linked, err := os.Stat(dir)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return nil, nil, true, fmt.Errorf("%w: %s is a symbolic link to %s, which does not exist: nothing is written there; make the folder %s first, or give --parquet a folder", ErrParquetDir, dir, target, target)
		case err != nil:
			return nil, nil, true, fmt.Errorf("Parquet folder %s: %w", dir, unwrapPath(err))
		case !linked.IsDir():
			return nil, nil, true, fmt.Errorf("%w: %s is a symbolic link to %s, %s, not a folder: nothing is written there; give --parquet a folder", ErrParquetDir, dir, target, outfile.FileType(linked.Mode()))
		}
		info = linked
	}
	if !info.IsDir() {
		return nil, nil, true, fmt.Errorf("%w: %s is %s, not a folder: nothing is written there; give --parquet a folder", ErrParquetDir, dir, outfile.FileType(info.Mode()))
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, true, fmt.Errorf("Parquet folder %s: %w", dir, unwrapPath(err))
	}
	var foreign []string
	for _, e := range entries {
		switch name := e.Name(); {
		case strings.HasPrefix(name, "."):
		case isParquetFile(name) && e.Type().IsRegular():
			files = append(files, name)
		case isParquetFile(name):
			foreign = append(foreign, name+", which is "+outfile.FileType(e.Type()))
		default:
			foreign = append(foreign, name)
		}
	}
	if len(foreign) > 0 {
		if len(foreign) > 3 {
			foreign = append(foreign[:3:3], fmt.Sprintf("and %d more", len(foreign)-3))
		}
		return nil, nil, true, fmt.Errorf("%w: %s holds files that ponte did not write (%s): nothing is written there; give --parquet a folder of its own, or move those files out",
			ErrParquetDir, dir, strings.Join(foreign, ", "))
	}
	if m, err = readMarker(dir); err != nil {
		return nil, nil, true, fmt.Errorf("%w: %s: %v: nothing is written there; remove %s, or give --parquet another folder", ErrParquetDir, filepath.Join(dir, MarkerName), err, dir)
	}
	return files, m, true, nil
}

// readMarker reads the marker of dir; nil when there is none.
func readMarker(dir string) (*marker, error) {
	v, err := openFolder(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer v.close()
	return readMarkerIn(v)
}

// readMarkerIn reads the marker of the folder v; nil when there is none. A marker that is
// not a regular file (a FIFO would never end its read) is not one ponte wrote.
func readMarkerIn(v *folderView) (*marker, error) {
	f, err := v.open(MarkerName)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case errors.Is(err, syscall.ELOOP):
		return nil, errors.New("not a marker ponte wrote (a symbolic link)")
	case err != nil:
		return nil, unwrapPath(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, unwrapPath(err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("not a marker ponte wrote (%s)", outfile.FileType(info.Mode()))
	}
	b, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil, unwrapPath(err)
	}
	var m marker
	if err := json.Unmarshal(b, &m); err != nil || m.DatabaseID == "" {
		return nil, errors.New("not a marker ponte wrote (no database_id)")
	}
	return &m, nil
}

// writeMarker writes the marker of the live folder dir, naming this database, creating
// dir if needed; it replaces an earlier one at once (outfile: renamed into place). The
// folder's Parquet files stay as they are: the marker names the database, which a move
// changes, not their state.
func (d *DB) writeMarker(dir string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	b, err := d.markerBytes()
	if err != nil {
		return err
	}
	return outfile.WriteFile(context.Background(), filepath.Join(dir, MarkerName), func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// writeMarkerIn writes the marker into the staging folder of a new state (folderSwitch),
// synced.
func (d *DB) writeMarkerIn(stage string) error {
	b, err := d.markerBytes()
	if err != nil {
		return err
	}
	path := filepath.Join(stage, MarkerName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, unwrapPath(err))
	}
	return nil
}

// markerBytes is the marker naming this database, as written.
func (d *DB) markerBytes() ([]byte, error) {
	abs, err := filepath.Abs(d.path)
	if err != nil {
		return nil, err
	}
	m := marker{Note: markerNote, Database: abs, DatabaseID: d.id, Written: time.Now().UTC().Format(time.RFC3339)}
	if d.parquetOnly != "" { // no database: the marker names none
		m.Note, m.Database, m.DatabaseID = parquetOnlyNote, "", ParquetOnlyID
	}
	b, err := json.MarshalIndent(m, "", "  ")
	return append(b, '\n'), err
}

// tempName matches the names that WriteParquet of older versions wrote its files under
// until they were complete: ".games.parquet.0123abcd.tmp", ".turns.parquet.0123abcd.tmp", ".tags.parquet.0123abcd.tmp".
var tempName = regexp.MustCompile(`^\.(` + strings.Join(parquetFiles, "|") + `)\.[0-9a-f]{8}\.tmp$`)

// RemoveStaleTemps removes from dir the temporary files that WriteParquet left when its
// run was killed: regular files named exactly as WriteParquet names them while it writes
// (".games.parquet.XXXXXXXX.tmp", ".turns.parquet.XXXXXXXX.tmp", ".tags.parquet…", X a hex digit) and last
// modified before the given time, the start of the run that calls it, so that a file
// being written now (by this run, later, or by a live one: it is modified as it is
// written) is left alone. Nothing else is touched. It returns the paths removed; a
// directory that does not exist holds none.
func RemoveStaleTemps(dir string, before time.Time) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !tempName.MatchString(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil || !info.ModTime().Before(before) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return removed, err
		}
		removed = append(removed, p)
	}
	return removed, nil
}
