package store

import (
	"hash/maphash"
	"math/bits"
)

// idFilterBits is the size of an idFilter: 2^24 bits (2 MiB), which answers "maybe" for
// fewer than 1 in 400 new games after a million stored and 1 in 8 after 4 million (each a
// lookup, as without the filter).
const idFilterBits = 1 << 24

// idFilterProbes is how many bits an id sets.
const idFilterProbes = 4

// An idFilter is a Bloom filter of game ids: has is false for an id never added, and
// true for one added (or, rarely, for another). Its memory is fixed, whatever the games.
type idFilter struct {
	bits []uint64
}

func newIDFilter() *idFilter {
	return &idFilter{bits: make([]uint64, idFilterBits/64)}
}

// idSeed hashes the ids that are not the 32 hex digits of a game id.
var idSeed = maphash.MakeSeed()

// keys are two 64-bit numbers of id: a game id's hex digits (a SHA-256's bits), else a
// hash of it.
func idKeys(id string) (h1, h2 uint64) {
	if len(id) == 32 {
		if a, ok := hex64(id[:16]); ok {
			if b, ok := hex64(id[16:]); ok {
				return a, b | 1
			}
		}
	}
	h := maphash.String(idSeed, id)
	return h, bits.RotateLeft64(h, 32)*0x9e3779b97f4a7c15 | 1
}

// hex64 reads 16 lower-case hex digits.
func hex64(s string) (uint64, bool) {
	var v uint64
	for i := range len(s) {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uint64(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uint64(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

func (f *idFilter) add(id string) {
	h1, h2 := idKeys(id)
	for i := range uint64(idFilterProbes) {
		b := (h1 + i*h2) % idFilterBits
		f.bits[b/64] |= 1 << (b % 64)
	}
}

func (f *idFilter) has(id string) bool {
	h1, h2 := idKeys(id)
	for i := range uint64(idFilterProbes) {
		b := (h1 + i*h2) % idFilterBits
		if f.bits[b/64]&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}
