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
	"flag"
	"strings"

	"github.com/ponte/ponte/internal/subcmd"
)

const usage = `usage:
  vnet play [flags] --out FILE.ponte.gz        self-play games with a random turn (play --help)
  vnet convert --out FILE.ponte.gz FILE.jsonl  the first generator's games as records
  vnet train [flags] --out model.bin FILE...   fit a value network to games (train --help)
  vnet truth --model model.bin [flags] FILE    a model against a truth set (truth --help)
`

func main() {
	subcmd.Main("vnet", usage, map[string]subcmd.Func{
		"play":    play,
		"convert": convert,
		"train":   train,
		"truth":   truth,
	})
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
