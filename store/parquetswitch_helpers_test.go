package store

import (
	"io"
	"os"
	"regexp"
)

// switchName matches the staging and old folders of the live folder NAME that
// outfile.Folder makes beside it.
func switchName(name string) *regexp.Regexp {
	return regexp.MustCompile(`^\.` + regexp.QuoteMeta(name) + `\.ponte-(stage|old)-([0-9]+)-[0-9a-f]{8}$`)
}

// copyInto copies the regular file src to dst.
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
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
