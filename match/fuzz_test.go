package match

import (
	"strings"
	"testing"
)

// ReadLadder never panics, and each error names the file and a line.
func FuzzReadLadder(f *testing.F) {
	f.Add(`{"a":"greedy","b":"random","size":10,"supply":"unlimited","seed":1,"games":2,"wins":2,"draws":0,"losses":0,"pentanomial":[0,0,0,0,1],"outcomes":[{"opener":"greedy","swapped":false,"score":1,"games":1},{"opener":"random","swapped":true,"score":0,"games":1}],"bots":[{"name":"greedy","turns":1,"ms_per_turn":1,"playouts_per_turn":null},{"name":"random","turns":1,"ms_per_turn":1,"playouts_per_turn":2}]}` + "\n")
	f.Add("{}\n\n{\"a\":\"x\"}")
	f.Add(`{"pentanomial":[1,2,3,4,5,6]}`)
	f.Fuzz(func(t *testing.T, text string) {
		blocks, err := ReadLadder(strings.NewReader(text), "l")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "l:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		for _, b := range blocks {
			if err := b.check(); err != nil {
				t.Fatalf("a block read is inconsistent: %v", err)
			}
		}
		if len(blocks) > 0 {
			FitLadder(blocks, blocks[0].A, blocks[0].Size, blocks[0].Supply, 2, 1)
		}
	})
}
