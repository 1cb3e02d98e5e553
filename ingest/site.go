package ingest

// The formats of other sites plug into the Reader here. Each site's reader lives in a
// file of its own (boardspace.go, abstractplay.go) that declares its Format constant and
// registers a siteFormat in an init function: how its files start, and how its next
// record is read. Adding a third site is a new file of that shape; nothing else in the
// package names a site.

// siteFormat is the record format of another site.
type siteFormat struct {
	format Format
	// name is what Format.String returns and ParseFormat reads.
	name string
	// detect reports whether a file whose first non-blank line is line (from its first
	// non-blank byte) is in this format. Site formats are asked before the project's own,
	// so a detector must not claim a line that starts a .ponte or JSON Lines file.
	detect func(line []byte) bool
	// newReader returns the reader of the format, reading the lines of r.
	newReader func(r *Reader) formatReader
}

// siteFormats are the registered formats, in the order registered.
var siteFormats []siteFormat

// registerSite adds a site's format; each site's file calls it from init.
func registerSite(f siteFormat) {
	if f.format <= FormatJSONL || f.name == "" || f.detect == nil || f.newReader == nil {
		panic("ingest: incomplete site format " + f.name)
	}
	for _, g := range siteFormats {
		if g.format == f.format || g.name == f.name {
			panic("ingest: site format registered twice: " + f.name)
		}
	}
	siteFormats = append(siteFormats, f)
}

// site returns the registered format f, or nil.
func site(f Format) *siteFormat {
	for i := range siteFormats {
		if siteFormats[i].format == f {
			return &siteFormats[i]
		}
	}
	return nil
}

// A formatReader reads the records of one format from the lines of its [Reader]: each
// format's type (ponteReader, jsonlReader, bsReader, apReader) holds the state of that
// format alone, and the Reader, which detects the format and makes its formatReader,
// holds what every format shares (the line reader, the compressed layers, the notices,
// the records held back).
type formatReader interface {
	// read reads the next record, as [Reader.Read] does (io.EOF after the last).
	read() (*Record, error)
}

// newFormatReader returns the reader of r's format, or nil for FormatUnknown.
func newFormatReader(r *Reader) formatReader {
	switch r.format {
	case FormatPonte:
		return &ponteReader{Reader: r}
	case FormatJSONL:
		return &jsonlReader{Reader: r}
	}
	if s := site(r.format); s != nil {
		return s.newReader(r)
	}
	return nil
}
