// Package buildinfo says which build of ponte is running, for --version and the
// engine's name over GTP.
package buildinfo

import "runtime/debug"

// Version is what ponte --version prints: the module's version (a tag, for a binary that
// go install built from one; "(devel)" for a build in a checkout) and the VCS revision
// that go build stamps into a binary built in a checkout (not go run, nor a copy of the
// files without .git).
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (built without module information)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	var modified bool
	for _, st := range info.Settings {
		switch st.Key {
		case "vcs.revision":
			rev = st.Value
		case "vcs.time":
			at = st.Value
		case "vcs.modified":
			modified = st.Value == "true"
		}
	}
	switch {
	case rev != "":
		v += ", revision " + rev[:min(12, len(rev))]
		if at != "" {
			v += " of " + at
		}
		if modified {
			v += ", with uncommitted changes"
		}
	case v == "(devel)":
		v += ", no VCS revision (go run, or built outside a git checkout: go build -o ponte ./cmd/ponte stamps one)"
	}
	return v + ", " + info.GoVersion
}
