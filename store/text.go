package store

import "github.com/ponte/ponte/internal/utf8text"

// validText returns s as valid UTF-8 (utf8text.Valid): every text column of every table
// passes through it, or through the intake's utf8text.Fit, so that what the store holds
// is valid UTF-8 (Parquet readers such as DuckDB refuse a whole file for one invalid
// string). A valid s is returned as it is: checking it costs no allocation.
func validText(s string) string { return utf8text.Valid(s) }
