//go:build !unix

package cputime

import "time"

// Process is 0 where getrusage is missing: the rates it makes are unknown.
func Process() time.Duration { return 0 }
