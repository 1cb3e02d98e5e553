// Command ponte turns archives of Ponte del Diavolo games into verified, queryable data.
//
//	ponte verify [--json] [--workers N] PATH...
//	ponte selfplay [--games N] [--light BOT] [--dark BOT] [--seed S] [--out FILE] ...
//	ponte ingest [--db FILE] [--parquet DIR] [--workers N] [--json] PATH...
//
// Exit status: 0 all good, 1 some game illegal or some input unreadable, 2 a usage error,
// a path that cannot be read, or (ingest) a database that is busy.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
