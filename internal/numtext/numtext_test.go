package numtext

import (
	"math"
	"testing"
)

func TestThousands(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {12345, "12,345"}, {123456, "123,456"},
		{1234567, "1,234,567"}, {-1, "-1"}, {-999, "-999"}, {-1000, "-1,000"}, {-1234567, "-1,234,567"},
		{math.MaxInt64, "9,223,372,036,854,775,807"}, {math.MinInt64, "-9,223,372,036,854,775,808"},
	} {
		if got := Thousands(tc.n); got != tc.want {
			t.Errorf("Thousands(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
