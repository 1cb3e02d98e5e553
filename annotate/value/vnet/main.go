// Command vnet plays the games the learned value (package annotate/value) is trained on,
// trains it, and measures it against the truth set (docs/annotate.md, "A learned value"):
//
//	go run ./annotate/value/vnet play --size 8 --games 1000 --out v8-0.ponte.gz
//	go run ./annotate/value/vnet train --steps 20000 --out model.bin v8-*.ponte.gz v10-*.ponte.gz
//	go run ./annotate/value/vnet truth --model model.bin annotate/testdata/truthset.parquet
//
// play plays lore-100 against lore-100, with one uniformly random turn in half of the
// games, and writes .ponte records. Game i of a size and seed is always the same game, so a
// long generation runs as pieces of one file each (--from 0 --games 5000, then --from 5000,
// …): a piece interrupted keeps its games, in order, and says where to go on; a piece
// killed keeps nothing, its file being written at its end. convert turns the JSON Lines of
// the experiment's first generator into the same records; train fits a network to the
// games' results; truth measures a model's values and losses against the truth set, and
// with a reading of the search (truthset marks --csv) how a blend of the two ranks them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/ponte/ponte/internal/interrupt"
)

const usage = `usage:
  vnet play [flags] --out FILE.ponte.gz        self-play games with a random turn (play --help)
  vnet convert --out FILE.ponte.gz FILE.jsonl  the first generator's games as records
  vnet train [flags] --out model.bin FILE...   fit a value network to games (train --help)
  vnet truth --model model.bin [flags] FILE    a model against a truth set (truth --help)
`

func main() {
	ctx, stop := interrupt.Context(context.Background())
	defer stop()
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "play":
		err = play(ctx, os.Args[2:], os.Stdout)
	case "convert":
		err = convert(ctx, os.Args[2:], os.Stdout)
	case "train":
		err = train(ctx, os.Args[2:], os.Stdout)
	case "truth":
		err = truth(os.Args[2:], os.Stdout)
	default:
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var sig *interrupt.Signal
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.As(context.Cause(ctx), &sig):
		fmt.Fprintln(os.Stderr, "vnet: stopped:", err)
		if sig.Terminated() {
			os.Exit(143)
		}
		os.Exit(130)
	default:
		fmt.Fprintln(os.Stderr, "vnet:", err)
		os.Exit(2)
	}
}

// parseMixed parses flags and file names in any order: the files are returned.
func parseMixed(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		for len(args) > 0 && (args[0] == "-" || !strings.HasPrefix(args[0], "-")) {
			files = append(files, args[0])
			args = args[1:]
		}
		if len(args) == 0 {
			return files, nil
		}
		if args[0] == "--" {
			return append(files, args[1:]...), nil
		}
	}
}
