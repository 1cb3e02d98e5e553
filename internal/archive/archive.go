// Package archive opens the archive a command writes (ponte selfplay, match, export, atlas
// export): standard output, or a file written under a temporary name and renamed when
// complete (internal/outfile), compressed as its name says, in the format its name asks
// for.
package archive

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/internal/outfile"
	"github.com/ponte/ponte/internal/termtext"
)

// Output is where an archive goes: standard output, or a file opened by outfile (written
// under a temporary name and renamed when complete if it is a regular file, written
// through if it is a device or a FIFO), compressed as its name says.
type Output struct {
	W    io.Writer      // what the records are written to
	file *outfile.File  // nil for standard output
	comp io.WriteCloser // the gzip or zstd writer, or nil
}

// unwrittenCompression are the extensions of compressed formats that ponte reads or that
// are common, but does not write: a name ending in one is refused, not written as plain
// text under a compressed name.
var unwrittenCompression = []string{".zip", ".xz", ".bz2", ".lz4", ".lzma", ".lz", ".br", ".7z", ".z", ".tgz", ".tar", ".zstd", ".gzip"}

// CheckName checks the name of --out: a file, or "-" for standard output, whose
// extension, when it names a compressed format, is one ponte writes (.gz, .zst).
func CheckName(path string) error {
	if path == "" {
		return errors.New(`--out must name a file, or "-" for standard output`)
	}
	if outfile.IsStdout(path) {
		return nil
	}
	ext := strings.ToLower(filepath.Ext(path))
	for _, no := range unwrittenCompression {
		if ext == no {
			return fmt.Errorf("--out %s: ponte does not write %s files: end the name in .gz or .zst to compress, or leave the %s out for plain text",
				termtext.Safe(path), ext, ext)
		}
	}
	return nil
}

// Create opens the output named path: standard output for "-" or /dev/stdout, else
// the file (outfile.Create, which ctx stops while it waits for a FIFO's reader).
func Create(ctx context.Context, path string, stdout io.Writer) (*Output, error) {
	if err := CheckName(path); err != nil {
		return nil, err
	}
	if outfile.IsStdout(path) {
		return &Output{W: stdout}, nil
	}
	f, err := outfile.Create(ctx, path)
	if err != nil {
		return nil, err
	}
	o := &Output{W: f, file: f}
	switch lower := strings.ToLower(path); {
	case strings.HasSuffix(lower, ".gz"):
		o.comp = gzip.NewWriter(f)
	case strings.HasSuffix(lower, ".zst"):
		// One encoder goroutine: the bytes do not depend on the machine, and the games,
		// not the compression, are the slow part.
		zw, err := zstd.NewWriter(f, zstd.WithEncoderConcurrency(1))
		if err != nil {
			f.Abort()
			return nil, err
		}
		o.comp = zw
	}
	if o.comp != nil {
		o.W = o.comp
	}
	return o, nil
}

// Stdout reports whether the output is standard output.
func (o *Output) Stdout() bool { return o.file == nil }

// Atomic reports whether nothing reaches the output before commit: a regular file.
func (o *Output) Atomic() bool { return o.file != nil && o.file.Atomic() }

// Name says where the archive goes, for the summary.
func (o *Output) Name() string {
	if o.file == nil {
		return "standard output"
	}
	return o.file.Name()
}

// Removed are the temporary files of killed runs that Create removed.
func (o *Output) Removed() []string {
	if o.file == nil {
		return nil
	}
	return o.file.Removed
}

// Commit finishes the compressed stream and the file (outfile's Commit).
func (o *Output) Commit() error {
	if o.file == nil {
		return nil
	}
	if o.comp != nil {
		if err := o.comp.Close(); err != nil {
			o.file.Abort()
			return fmt.Errorf("cannot write %s: %w", o.file.Name(), err)
		}
	}
	return o.file.Commit()
}

// Abort drops the temporary file, unless commit renamed it.
func (o *Output) Abort() {
	if o.file != nil {
		o.file.Abort()
	}
}

// FormatOf is the format an output file's name asks for: JSON Lines for .jsonl,
// .jsonl.gz and .jsonl.zst, else .ponte.
func FormatOf(name string) ingest.Format {
	name = strings.ToLower(name)
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".zst")
	if strings.HasSuffix(name, ".jsonl") {
		return ingest.FormatJSONL
	}
	return ingest.FormatPonte
}
