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
	// read reads the next record, as [Reader.Read] does (io.EOF after the last). It keeps
	// what it needs between records with [siteState].
	read func(r *Reader) (*Record, error)
}

// siteFormats are the registered formats, in the order registered.
var siteFormats []siteFormat

// registerSite adds a site's format; each site's file calls it from init.
func registerSite(f siteFormat) {
	if f.format <= FormatJSONL || f.name == "" || f.detect == nil || f.read == nil {
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

// siteState returns the reader's state of type T for the site being read, made zero on
// first use. A Reader reads one format, so it holds the state of one site at most.
func siteState[T any](r *Reader) *T {
	if s, ok := r.site.(*T); ok {
		return s
	}
	s := new(T)
	r.site = s
	return s
}
