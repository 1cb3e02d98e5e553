package learn

//go:generate go run ./gen -o weights.go ../testdata/arch-matches/*.ponte.gz
