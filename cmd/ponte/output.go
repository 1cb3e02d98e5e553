package main

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/ponte/ponte/internal/outfile"
)

// output is where an archive goes: standard output, or a file opened by outfile (written
// under a temporary name and renamed when complete if it is a regular file, written
// through if it is a device or a FIFO), compressed as its name says.
type output struct {
	w    io.Writer      // what the records are written to
	file *outfile.File  // nil for standard output
	comp io.WriteCloser // the gzip or zstd writer, or nil
}

// unwrittenCompression are the extensions of compressed formats that ponte reads or that
// are common, but does not write: a name ending in one is refused, not written as plain
// text under a compressed name.
var unwrittenCompression = []string{".zip", ".xz", ".bz2", ".lz4", ".lzma", ".lz", ".br", ".7z", ".z", ".tgz", ".tar", ".zstd", ".gzip"}

// checkOutputName checks the name of --out: a file, or "-" for standard output, whose
// extension, when it names a compressed format, is one ponte writes (.gz, .zst).
func checkOutputName(path string) error {
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
				safe(path), ext, ext)
		}
	}
	return nil
}

// createOutput opens the output named path: standard output for "-" or /dev/stdout, else
// the file (outfile.Create, which ctx stops while it waits for a FIFO's reader).
func createOutput(ctx context.Context, path string, stdout io.Writer) (*output, error) {
	if err := checkOutputName(path); err != nil {
		return nil, err
	}
	if outfile.IsStdout(path) {
		return &output{w: stdout}, nil
	}
	f, err := outfile.Create(ctx, path)
	if err != nil {
		return nil, err
	}
	o := &output{w: f, file: f}
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
		o.w = o.comp
	}
	return o, nil
}

// stdout reports whether the output is standard output.
func (o *output) stdout() bool { return o.file == nil }

// atomic reports whether nothing reaches the output before commit: a regular file.
func (o *output) atomic() bool { return o.file != nil && o.file.Atomic() }

// name says where the archive goes, for the summary.
func (o *output) name() string {
	if o.file == nil {
		return "standard output"
	}
	return o.file.Name()
}

// notes says, on w, which temporary files of killed runs were removed.
func (o *output) notes(w io.Writer, command string) {
	if o.file == nil {
		return
	}
	for _, p := range o.file.Removed {
		fmt.Fprintf(w, "ponte %s: note: removed %s, a temporary file left by a run that was killed\n", command, safe(p))
	}
}

// commit finishes the compressed stream and the file (outfile's Commit).
func (o *output) commit() error {
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

// abort drops the temporary file, unless commit renamed it.
func (o *output) abort() {
	if o.file != nil {
		o.file.Abort()
	}
}
