// Package inorder puts back in sequence what parallel workers hand back out of order: the
// one mechanism behind every ordered pipeline of ponte (verify, selfplay, ingest).
package inorder

// Buffer holds the items that arrived before their turn and releases them in sequence.
// The zero Buffer is not ready; use New.
type Buffer[T any] struct {
	pending map[int]T
	next    int
}

// New returns an empty Buffer whose first item is number first.
func New[T any](first int) *Buffer[T] {
	return &Buffer[T]{pending: make(map[int]T), next: first}
}

// Add records item number seq. Each number is added once.
func (b *Buffer[T]) Add(seq int, v T) { b.pending[seq] = v }

// Next returns the item that is due, and false when it has not arrived yet.
func (b *Buffer[T]) Next() (T, bool) {
	v, ok := b.pending[b.next]
	if ok {
		delete(b.pending, b.next)
		b.next++
	}
	return v, ok
}

// Due returns the number of the item that is due next.
func (b *Buffer[T]) Due() int { return b.next }

// Held returns how many items wait for their turn.
func (b *Buffer[T]) Held() int { return len(b.pending) }
