// Command ponte turns archives of Ponte del Diavolo games into verified, queryable data.
//
//	ponte verify [--json] [--workers N] PATH...
//	ponte selfplay [--games N] [--light BOT] [--dark BOT] [--seed S] [--out FILE] ...
//
// Exit status: 0 all good, 1 some game illegal or some input unreadable, 2 a usage error
// or a path that cannot be read.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
