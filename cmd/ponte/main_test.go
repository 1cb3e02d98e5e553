package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/ponte/ponte/store"
)

// TestMain lets a test run the test binary as the ponte command (PONTE_TEST_MAIN=1), for
// tests that need a process of their own: one to kill, two that race.
// PONTE_TEST_COMMIT_GAMES sets the games per transaction of an ingest. With
// PONTE_TEST_HOLD=1 the process holds the database of its --db as a writing command does
// (store.Open), says "locked" on standard output, and lets it go when standard input ends:
// a writer that holds the lock for as long as a test needs, its command line any command's.
func TestMain(m *testing.M) {
	if os.Getenv("PONTE_TEST_HOLD") == "1" {
		os.Exit(holdDatabase(os.Args[1:]))
	}
	if os.Getenv("PONTE_TEST_MAIN") == "1" {
		if n, err := strconv.Atoi(os.Getenv("PONTE_TEST_COMMIT_GAMES")); err == nil {
			commitGames = n
		}
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// holdDatabase opens the database named by --db in args for writing, says "locked", and
// closes it when standard input ends.
func holdDatabase(args []string) int {
	path := ""
	for i, a := range args {
		if a == "--db" && i+1 < len(args) {
			path = args[i+1]
		}
	}
	db, err := store.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return exitUsage
	}
	fmt.Println("locked")
	io.Copy(io.Discard, os.Stdin)
	if err := db.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return exitUsage
	}
	return exitOK
}
