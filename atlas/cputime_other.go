//go:build !unix

package atlas

import "time"

// CPUTime is 0 where getrusage is missing: the rates it makes are unknown.
func CPUTime() time.Duration { return 0 }
