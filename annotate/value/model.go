package value

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/ponte/ponte/replay"
)

// Model is a network that reads Encode's planes: the value of a position is the mean of
// its values under the 8 symmetries of the board. Value is safe for concurrent use (each
// call takes its own working memory from a pool); training the Net meanwhile is not.
type Model struct {
	net  *Net
	pool sync.Pool // *valueScratch
}

type valueScratch struct {
	planes, globals, turned []float32
	sample                  Sample
	sc                      Scratch
}

// NewModel wraps n, which must read Planes planes and Globals globals.
func NewModel(n *Net) (*Model, error) {
	if n.Cfg.In != Planes || n.Cfg.Globals != Globals {
		return nil, fmt.Errorf("%w: a network of %d planes and %d globals, not %d and %d", ErrModel, n.Cfg.In, n.Cfg.Globals, Planes, Globals)
	}
	m := &Model{net: n}
	m.pool.New = func() any { return new(valueScratch) }
	return m, nil
}

// Load reads a model written by Save.
func Load(r io.Reader) (*Model, error) {
	n, err := LoadNet(r)
	if err != nil {
		return nil, err
	}
	return NewModel(n)
}

// LoadFile reads the model file path; its errors name the file.
func LoadFile(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Save writes the model's network (Net.Save).
func (m *Model) Save(w io.Writer) error { return m.net.Save(w) }

// Net is the model's network.
func (m *Model) Net() *Net { return m.net }

// Value is the score colour c can expect from position g, from 0 (a loss) to 1 (a win),
// a draw counting one half: the network's value for the colour to move, averaged over the
// 8 symmetries; the result when the game is over.
func (m *Model) Value(g *replay.Game, c replay.Colour) float64 {
	if g.Over() {
		return g.ResultFor(c)
	}
	s := m.pool.Get().(*valueScratch)
	defer m.pool.Put(s)
	size := g.Size()
	s.planes = grow(s.planes, Planes*size*size)
	s.globals = grow(s.globals, Globals)
	if Encode(g, s.planes, s.globals) != c {
		return 1 - m.value(s, size)
	}
	return m.value(s, size)
}

// ValueOf is the value for the colour to move of a position encoded by Encode (planes of
// side size), averaged over the 8 symmetries.
func (m *Model) ValueOf(planes, globals []float32, size int) float64 {
	s := m.pool.Get().(*valueScratch)
	defer m.pool.Put(s)
	s.planes = append(s.planes[:0], planes...)
	s.globals = append(s.globals[:0], globals...)
	return m.value(s, size)
}

func (m *Model) value(s *valueScratch, size int) float64 {
	s.turned = grow(s.turned, len(s.planes))
	s.sample = Sample{Size: size, Globals: s.globals}
	var sum float64
	for t := range Symmetries {
		s.sample.Planes = s.planes
		if t != 0 {
			Transform(s.turned, s.planes, size, t)
			s.sample.Planes = s.turned
		}
		sum += float64(m.net.Predict(&s.sample, &s.sc))
	}
	return sum / Symmetries
}
