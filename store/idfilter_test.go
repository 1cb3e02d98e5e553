package store

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"testing"
)

// An idFilter has every id added, game ids and others, and few of those never added.
func TestIDFilter(t *testing.T) {
	id := func(i int) string {
		h := sha256.Sum256([]byte(strconv.Itoa(i)))
		return hex.EncodeToString(h[:16])
	}
	f := newIDFilter()
	const n = 200000
	for i := range n {
		f.add(id(i))
	}
	others := []string{"", "x", "not hex, but 32 bytes long......", "ABCDEF0123456789ABCDEF0123456789"}
	for _, s := range others {
		f.add(s)
	}
	for i := range n {
		if !f.has(id(i)) {
			t.Fatalf("id %d added, not had", i)
		}
	}
	for _, s := range others {
		if !f.has(s) {
			t.Fatalf("%q added, not had", s)
		}
	}
	false_ := 0
	for i := n; i < 2*n; i++ {
		if f.has(id(i)) {
			false_++
		}
	}
	if false_ > n/1000 {
		t.Errorf("%d of %d ids never added are had", false_, n)
	}
}
