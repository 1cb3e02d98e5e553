package flagvalue

import (
	"fmt"
	"strconv"
	"strings"
)

// ByteSize is a flag value of bytes: a whole number, with an optional binary unit KiB,
// MiB or GiB (K, M, G, KB, MB and GB mean the same).
type ByteSize int64

// String writes the size with the largest unit that divides it.
func (b *ByteSize) String() string {
	n := int64(*b)
	switch {
	case n > 0 && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "GiB"
	case n > 0 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	case n > 0 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "KiB"
	}
	return strconv.FormatInt(n, 10)
}

// Set reads a size.
func (b *ByteSize) Set(s string) error {
	t := strings.TrimSpace(s)
	unit := int64(1)
	lower := strings.ToLower(t)
	for _, u := range []struct {
		suffix string
		n      int64
	}{
		{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30},
		{"kb", 1 << 10}, {"mb", 1 << 20}, {"gb", 1 << 30},
		{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"b", 1},
	} {
		if strings.HasSuffix(lower, u.suffix) {
			t, unit = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.n
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/unit {
		return fmt.Errorf("%q is not a size in bytes (1048576, 1MiB, 64KiB)", s)
	}
	*b = ByteSize(n * unit)
	return nil
}

// Type names the kind of value in the help.
func (b *ByteSize) Type() string { return "size" }
