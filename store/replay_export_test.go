package store

// ReplayHook is intake.ReplayStored, set by replay_hook_test.go (an external test file:
// intake imports store), for the tests that upgrade databases of schema version 1 to 3.
var ReplayHook func() ReplayStored

// openUpgrading is Open with the ingest's replay of stored games, as ponte ingest opens a
// database.
func openUpgrading(path string) (*DB, error) {
	return OpenWith(path, OpenOptions{Replay: ReplayHook})
}
