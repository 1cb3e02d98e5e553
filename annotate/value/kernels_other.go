//go:build !amd64

package value

func gemmRowAVX(a, b, c *float32, k, n, ldb int)            { panic("no avx") }
func gerAVX(a, v, m *float32, k, n, ldm int)                { panic("no avx") }
func gemm2RowAVX(a1, a2, b, c1, c2 *float32, k, n, ldb int) { panic("no avx") }
func ger2AVX(a1, a2, v1, v2, m *float32, k, n, ldm int)     { panic("no avx") }
func reluAVX(x *float32, n int)                             { panic("no avx") }
func maskAVX(d, y *float32, n int)                          { panic("no avx") }
