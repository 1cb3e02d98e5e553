package pipeline

// reorder holds the batches that came back before their turn and releases them in
// sequence, from 0.
type reorder[T any] struct {
	pending map[int]T
	due     int
}

func newReorder[T any]() *reorder[T] { return &reorder[T]{pending: make(map[int]T)} }

// add records item number seq. Each number is added once.
func (r *reorder[T]) add(seq int, v T) { r.pending[seq] = v }

// next returns the item that is due, and false when it has not come back yet.
func (r *reorder[T]) next() (T, bool) {
	v, ok := r.pending[r.due]
	if ok {
		delete(r.pending, r.due)
		r.due++
	}
	return v, ok
}
