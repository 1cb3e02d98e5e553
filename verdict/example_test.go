package verdict_test

import (
	"fmt"
	"strings"

	"github.com/ponte/ponte/ingest"
	"github.com/ponte/ponte/verdict"
)

// One game, written two ways, has one id.
func ExampleGameID() {
	for _, text := range []string{
		"[Light \"alice\"]\n\n1. f6,g7 2. swap 3. e5,e6 {the centre} 4. g5,h5 *\n",
		`{"light": "bob", "moves": ["g7,f6", "swap", "e5,e6", "h5,g5"]}` + "\n",
	} {
		rec, err := ingest.NewReader(strings.NewReader(text), "-").Read()
		if err != nil {
			panic(err)
		}
		fmt.Println(verdict.GameID(rec))
	}
	// Output:
	// 1d0ff509b581ecf988b45ac8af9d3d88
	// 1d0ff509b581ecf988b45ac8af9d3d88
}
