package outfile

import (
	"os"
	"path/filepath"
)

// installExchange is exchange; the tests make it fail, as where it is not supported.
var installExchange = exchange

// InstallFolder puts the finished folder tmp in place as dir, for a folder that Folder
// cannot switch whole: one whose name must not change (the current folder ".", a mount
// point) or that keeps files its writer did not write, such as a site's .git (ponte
// report). When dir does not exist, tmp, made beside it, is renamed to it. Else tmp is a
// folder inside dir, and the entries names of tmp are moved into dir one by one, in that
// order: each trades places with the earlier one of its name in one step (renameat2
// RENAME_EXCHANGE), or, where that is not supported, the earlier one is set aside into
// tmp+".old" and the new one renamed in (the earlier one put back when that fails). The
// folder the renames changed is synced; then tmp and what was set aside are removed.
// Other entries of dir are not touched. Files in tmp are not synced here: the writer
// syncs those it needs kept.
func InstallFolder(tmp, dir string, names []string) error {
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		if err := os.Rename(tmp, dir); err != nil {
			return err
		}
		parent := filepath.Dir(filepath.Clean(dir))
		syncDir(parent) // a folder that cannot be synced keeps no more
		return nil
	}
	old := tmp + ".old"
	if err := os.Mkdir(old, 0o755); err != nil {
		return err
	}
	for _, name := range names {
		at, src := filepath.Join(dir, name), filepath.Join(tmp, name)
		if _, err := os.Lstat(at); err == nil {
			if installExchange(src, at) == nil {
				continue // the earlier one is now in tmp, removed with it
			}
			if err := os.Rename(at, filepath.Join(old, name)); err != nil {
				return err
			}
		}
		if err := os.Rename(src, at); err != nil {
			os.Rename(filepath.Join(old, name), at) // the earlier one back
			return err
		}
	}
	syncDir(dir)
	if err := os.RemoveAll(old); err != nil {
		return err
	}
	return os.RemoveAll(tmp)
}
