package inorder

import (
	"math/rand/v2"
	"testing"
)

// Items added in any order come out in sequence, each once, as soon as they are due.
func TestBuffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, first := range []int{0, 1, 7} {
		const n = 500
		seqs := rng.Perm(n)
		b := New[int](first)
		var out []int
		for _, s := range seqs {
			b.Add(first+s, 10*(first+s))
			for {
				v, ok := b.Next()
				if !ok {
					break
				}
				out = append(out, v)
			}
		}
		if len(out) != n || b.Held() != 0 || b.Due() != first+n {
			t.Fatalf("first %d: %d items out, %d held, %d due", first, len(out), b.Held(), b.Due())
		}
		for i, v := range out {
			if v != 10*(first+i) {
				t.Fatalf("first %d: item %d is %d", first, i, v)
			}
		}
	}
}

func TestNextWaitsForTheDueItem(t *testing.T) {
	b := New[string](1)
	b.Add(2, "two")
	if _, ok := b.Next(); ok || b.Held() != 1 {
		t.Fatal("item 2 came out before item 1")
	}
	b.Add(1, "one")
	if v, ok := b.Next(); !ok || v != "one" {
		t.Fatalf("got %q %v", v, ok)
	}
	if v, ok := b.Next(); !ok || v != "two" {
		t.Fatalf("got %q %v", v, ok)
	}
}
