//go:build !unix

package ingest

import "time"

// cpuTime is not measured here: cpu-ms/op is then 0.
func cpuTime() time.Duration { return 0 }
