package main

import (
	"os"
	"strconv"
	"testing"
)

// TestMain lets a test run the test binary as the ponte command (PONTE_TEST_MAIN=1), for
// tests that need a process of their own: one to kill, two that race.
// PONTE_TEST_COMMIT_GAMES sets the games per transaction of an ingest.
func TestMain(m *testing.M) {
	if os.Getenv("PONTE_TEST_MAIN") == "1" {
		if n, err := strconv.Atoi(os.Getenv("PONTE_TEST_COMMIT_GAMES")); err == nil {
			commitGames = n
		}
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
