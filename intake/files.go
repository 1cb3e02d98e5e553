package intake

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"os"

	"github.com/ponte/ponte/ingest"
)

// inputFile is one file to ingest, or standard input.
type inputFile struct {
	path  string
	stdin bool
}

// listFiles expands the paths into the files to read with ingest.Inputs, so that the intake
// reads exactly what ingest.Open reads, in the same order. A path that does not exist is
// an error before anything is read; what cannot be looked at during a walk is in errs, and
// what the walk passes over on purpose (a FIFO or device in a directory) in notices.
func listFiles(paths []string) (files []inputFile, errs, notices []error, err error) {
	inputs, err := ingest.Inputs(paths)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, in := range inputs {
		switch {
		case ingest.IsNotice(in.Err):
			notices = append(notices, in.Err)
			continue
		case in.Err != nil:
			errs = append(errs, in.Err)
			continue
		}
		files = append(files, inputFile{path: in.Path, stdin: in.Path == "-"})
	}
	return files, errs, notices, nil
}

// hashFile returns the SHA-256 (hex) and the size of the file's bytes.
func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, ingest.NewPathError("open", path, err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, ingest.NewPathError("read", path, err)
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
