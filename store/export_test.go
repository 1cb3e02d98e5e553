package store

// ComputeStats is stats.Compute's report of the games of population in r, as
// `ponte stats --json` prints it (set by stats_hook_test.go, an external test).
var ComputeStats func(r *Reader, population string) ([]byte, error)
