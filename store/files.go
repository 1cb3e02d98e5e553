package store

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ponte/ponte/ingest"
)

// inputFile is one file to ingest, or standard input.
type inputFile struct {
	path  string
	stdin bool
}

// listFiles expands the paths into the files to read, in the order ingest.Open reads them:
// a file as given, a directory walked recursively in lexical order, skipping hidden files
// and directories, README* and __MACOSX, following links to files but not to directories;
// "-" is standard input. A path that does not exist is an error before anything is read;
// what cannot be read during the walk is returned in errs and the walk goes on.
func listFiles(paths []string) (files []inputFile, errs []error, err error) {
	for _, p := range paths {
		if p == "-" {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			return nil, nil, pathError("open", p, err)
		}
	}
	for _, p := range paths {
		if p == "-" {
			files = append(files, inputFile{path: "-", stdin: true})
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			errs = append(errs, pathError("open", p, err))
			continue
		}
		if !info.IsDir() {
			files = append(files, inputFile{path: p})
			continue
		}
		root := p
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				errs = append(errs, pathError("open", p, err))
				if d != nil && d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if p != root && skipName(d.Name()) {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				fi, err := os.Stat(p)
				if err != nil {
					errs = append(errs, pathError("open", p, err))
					return nil
				}
				if !fi.Mode().IsRegular() {
					return nil
				}
			} else if !d.Type().IsRegular() {
				return nil
			}
			files = append(files, inputFile{path: p})
			return nil
		})
	}
	return files, errs, nil
}

// skipName reports whether a name met in a directory walk is skipped, as ingest.Open does.
func skipName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "README") || name == "__MACOSX"
}

// pathError is an *ingest.PathError without the path repeated in the cause.
func pathError(op, path string, err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err
	}
	return &ingest.PathError{Op: op, Path: path, Err: err}
}

// hashFile returns the SHA-256 (hex) and the size of the file's bytes.
func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, pathError("open", path, err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, pathError("read", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// hashingReader hashes what is read through it (standard input, which has no stable name).
type hashingReader struct {
	r io.Reader
	h hash.Hash
	n int64
}

func (h *hashingReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	h.h.Write(p[:n])
	h.n += int64(n)
	return n, err
}

func (h *hashingReader) sum() string { return hex.EncodeToString(h.h.Sum(nil)) }
