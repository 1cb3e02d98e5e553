package atlas_test

import (
	"fmt"

	"github.com/ponte/ponte/atlas"
)

// The critical values of the default schedule's looks: the first look gets most of α, the
// later ones share the rest through the looks' joint law.
func ExampleConfig_Z() {
	c := atlas.DefaultConfig()
	for j := 1; j <= c.Looks(); j++ {
		fmt.Printf("look %d: %4d games, z %.2f\n", j, c.Target(j), c.Z(j))
	}
	// Output:
	// look 1:   16 games, z 2.05
	// look 2:   32 games, z 2.87
	// look 3:   64 games, z 3.00
	// look 4:  128 games, z 3.03
	// look 5:  256 games, z 3.04
	// look 6:  512 games, z 3.04
	// look 7: 1024 games, z 3.07
}

// A class's verdict against the fair band ½ ± 3 %.
func ExampleJudge() {
	for _, iv := range [][2]float64{{0.58, 0.71}, {0.2, 0.4}, {0.48, 0.52}, {0.45, 0.6}} {
		fmt.Println(atlas.Judge(iv[0], iv[1], 0.03))
	}
	// Output:
	// swap
	// keep
	// fair
	// open
}
