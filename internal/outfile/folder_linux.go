package outfile

import "golang.org/x/sys/unix"

// exchange trades the names of the folders a and b in one step (renameat2
// RENAME_EXCHANGE); an error where the file system does not support it.
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}
