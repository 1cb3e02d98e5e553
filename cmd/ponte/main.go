// Command ponte turns archives of Ponte del Diavolo games into verified, queryable data.
//
//	ponte analyze [PATH...]              ingest, statistics and report at once
//	ponte verify [--json] PATH...        every game replayed; where a record goes wrong
//	ponte ingest [--db FILE] PATH...     games, verdicts and features into SQLite and Parquet
//	ponte stats [--ratings] [filters]    the pie rule's statistics, answer first
//	ponte report [--out DIR] [filters]   a static HTML report
//	ponte export [--only legal] ...      games as .ponte or JSON Lines
//	ponte annotate [--budget N] ...      the engine's reading of every stored turn
//	ponte selfplay [--games N] ...       games between bots
//	ponte match A B [flags]              bot A against bot B in game pairs: which is stronger
//	ponte bots [flags]                   the bots with their budget and rating from the ladder
//	ponte atlas run|plan|merge|show|export   the opening atlas
//	ponte gtp [--bot B]                  the engine over a text protocol on standard input and output
//
// A command parses its flags, calls one function of a package and renders the result;
// it returns its error, which exitStatus (exit.go) alone prints and maps to the status.
//
// Exit status, for every command: 0 done (illegal games are findings, reported, not
// failures), 1 verify found illegal or unreadable games, 2 a usage error or a path,
// database or folder that cannot be used (or standard output that cannot be written),
// 130 interrupted by SIGINT and 143 by SIGTERM (after saying what was done), 3 an
// internal error (a bug in ponte).
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
