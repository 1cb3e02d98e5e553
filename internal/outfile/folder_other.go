//go:build !linux

package outfile

import "errors"

// exchange is not supported here: a switch renames twice.
func exchange(a, b string) error { return errors.ErrUnsupported }
