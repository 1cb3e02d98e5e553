package learn

// The weights are fitted to the arch bots' turns in the 13 matches of session 8's arch
// (the lore matches, added later, are not in them).
//go:generate go run ./gen -o weights.go ../testdata/arch-matches/d1.ponte.gz ../testdata/arch-matches/eq10.ponte.gz ../testdata/arch-matches/eq10c.ponte.gz ../testdata/arch-matches/eq10d.ponte.gz ../testdata/arch-matches/eq12.ponte.gz ../testdata/arch-matches/eq12c.ponte.gz ../testdata/arch-matches/eq8.ponte.gz ../testdata/arch-matches/eq8c.ponte.gz ../testdata/arch-matches/speed10.ponte.gz ../testdata/arch-matches/sprt10.ponte.gz ../testdata/arch-matches/sprt10c.ponte.gz ../testdata/arch-matches/thr.ponte.gz ../testdata/arch-matches/thrt.ponte.gz
