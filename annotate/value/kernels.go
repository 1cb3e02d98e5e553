package value

// Low-level float32 kernels. On amd64 with AVX2+FMA the column blocks that are
// multiples of 8 are done in assembly; the rest (and other platforms) in Go.

// useAVX is set once, at init on amd64, when the machine has AVX2 and FMA (the tests
// compare the kernels with plain loops).
var useAVX bool

// gemmRow computes c[j] += sum_k a[k] * b[k*ldb+j] for j < n, k < len(a).
func gemmRow(a, b, c []float32, n, ldb int) {
	k := len(a)
	if k == 0 || n == 0 {
		return
	}
	_ = b[(k-1)*ldb+n-1]
	_ = c[n-1]
	j0 := 0
	if useAVX && n >= 8 {
		n8 := n &^ 7
		gemmRowAVX(&a[0], &b[0], &c[0], k, n8, ldb)
		j0 = n8
	}
	if j0 == n {
		return
	}
	cc := c[j0:n]
	for kk, av := range a {
		if av == 0 {
			continue
		}
		row := b[kk*ldb+j0 : kk*ldb+n]
		for j := range cc {
			cc[j] += av * row[j]
		}
	}
}

// ger computes m[k*ldm+j] += a[k] * v[j] for k < len(a), j < len(v).
func ger(a, v, m []float32, ldm int) {
	k, n := len(a), len(v)
	if k == 0 || n == 0 {
		return
	}
	_ = m[(k-1)*ldm+n-1]
	j0 := 0
	if useAVX && n >= 8 {
		n8 := n &^ 7
		gerAVX(&a[0], &v[0], &m[0], k, n8, ldm)
		j0 = n8
	}
	if j0 == n {
		return
	}
	vv := v[j0:]
	for kk, av := range a {
		if av == 0 {
			continue
		}
		row := m[kk*ldm+j0 : kk*ldm+n]
		for j := range row {
			row[j] += av * vv[j]
		}
	}
}

// gemm2Row is gemmRow for two rows sharing b: c1 += a1·b, c2 += a2·b.
func gemm2Row(a1, a2, b, c1, c2 []float32, n, ldb int) {
	k := len(a1)
	if k == 0 || n == 0 {
		return
	}
	_ = a2[k-1]
	_ = b[(k-1)*ldb+n-1]
	_, _ = c1[n-1], c2[n-1]
	if useAVX && n >= 8 {
		n8 := n &^ 7
		gemm2RowAVX(&a1[0], &a2[0], &b[0], &c1[0], &c2[0], k, n8, ldb)
		if n8 == n {
			return
		}
		b, c1, c2, n = b[n8:], c1[n8:], c2[n8:], n-n8
	}
	gemmRow(a1, b, c1, n, ldb)
	gemmRow(a2, b, c2, n, ldb)
}

// ger2 computes m[k*ldm+j] += a1[k]*v1[j] + a2[k]*v2[j].
func ger2(a1, a2, v1, v2, m []float32, ldm int) {
	k, n := len(a1), len(v1)
	if k == 0 || n == 0 {
		return
	}
	_, _ = a2[k-1], v2[n-1]
	_ = m[(k-1)*ldm+n-1]
	if useAVX && n >= 8 {
		n8 := n &^ 7
		ger2AVX(&a1[0], &a2[0], &v1[0], &v2[0], &m[0], k, n8, ldm)
		if n8 == n {
			return
		}
		v1, v2, m = v1[n8:], v2[n8:], m[n8:]
	}
	ger(a1, v1, m, ldm)
	ger(a2, v2, m, ldm)
}

// relu sets x[i] = max(x[i], 0) (branch-free where possible).
func relu(x []float32) {
	i := 0
	if useAVX && len(x) >= 8 {
		i = len(x) &^ 7
		reluAVX(&x[0], i)
	}
	for ; i < len(x); i++ {
		if x[i] < 0 {
			x[i] = 0
		}
	}
}

// reluMask sets d[i] = 0 where y[i] <= 0.
func reluMask(d, y []float32) {
	d = d[:len(y)]
	i := 0
	if useAVX && len(y) >= 8 {
		i = len(y) &^ 7
		maskAVX(&d[0], &y[0], i)
	}
	for ; i < len(y); i++ {
		if y[i] <= 0 {
			d[i] = 0
		}
	}
}
