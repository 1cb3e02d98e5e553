package value

//go:noescape
func gemmRowAVX(a, b, c *float32, k, n, ldb int)

//go:noescape
func gerAVX(a, v, m *float32, k, n, ldm int)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

func init() {
	_, _, ecx1, _ := cpuid(1, 0)
	fma := ecx1&(1<<12) != 0
	osxsave := ecx1&(1<<27) != 0
	avx := ecx1&(1<<28) != 0
	if !(fma && osxsave && avx) {
		return
	}
	xa, _ := xgetbv()
	if xa&6 != 6 { // XMM and YMM state enabled by the OS
		return
	}
	_, ebx7, _, _ := cpuid(7, 0)
	useAVX = ebx7&(1<<5) != 0
}

//go:noescape
func gemm2RowAVX(a1, a2, b, c1, c2 *float32, k, n, ldb int)

//go:noescape
func ger2AVX(a1, a2, v1, v2, m *float32, k, n, ldm int)

//go:noescape
func reluAVX(x *float32, n int)

//go:noescape
func maskAVX(d, y *float32, n int)
