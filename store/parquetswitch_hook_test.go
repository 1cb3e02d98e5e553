package store

import "os"

// The crash points of TestParquetSwitchKilled in the switch itself (switchStep).
func init() {
	setCrashHooks = func(point string, twoRenames bool) {
		noExchange = twoRenames
		switchStep = func(step string) {
			if step == point {
				os.Exit(killedExit)
			}
		}
	}
	atEvalsBatch = func(f func()) { evalsBatchWritten = f }
}
