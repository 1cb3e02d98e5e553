package main

import (
	"fmt"
	"strconv"
	"strings"
)

// parseShard reads --shard "i/N" (1 ≤ i ≤ N): the share of the work that one machine
// does, for ponte atlas and ponte annotate.
func parseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("--shard %q: must be i/N with 1 ≤ i ≤ N (such as 2/8)", s)
	}
	return i, n, nil
}
