// Package numtext writes numbers for people to read.
package numtext

import "strconv"

// Thousands writes n with a comma between groups of three digits: 1,234,567; -1,234.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	b := make([]byte, 0, len(s)+len(s)/3+1)
	b = append(b, sign...)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}
