package value

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// FuzzLoadNet reads any bytes as a model file: an error wrapping ErrModel, or a network of
// finite weights that reads a small position (its value is whatever such weights make).
func FuzzLoadNet(f *testing.F) {
	var small bytes.Buffer
	if err := NewNet(Config{In: Planes, Filters: 4, Layers: 1, Globals: Globals, Hidden: 2}, rand.New(rand.NewPCG(1, 1))).Save(&small); err != nil {
		f.Fatal(err)
	}
	f.Add(small.Bytes())
	f.Add(small.Bytes()[:40])
	if b, err := os.ReadFile("testdata/model.bin"); err == nil {
		f.Add(b[:64])
	}
	f.Add([]byte("VNET"))
	f.Fuzz(func(t *testing.T, b []byte) {
		n, err := LoadNet(bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, ErrModel) {
				t.Fatalf("error %v does not wrap ErrModel", err)
			}
			return
		}
		if n.Cfg.In != Planes || n.Cfg.Globals != Globals {
			return
		}
		for i, p := range n.Params {
			if math.IsNaN(float64(p)) || math.IsInf(float64(p), 0) {
				t.Fatalf("parameter %d is %v", i, p)
			}
		}
		s := &Sample{Size: 3, Planes: make([]float32, Planes*9), Globals: make([]float32, Globals)}
		s.Planes[0], s.Globals[0] = 1, 0.5
		n.Predict(s, nil)
	})
}
