package stats

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/ponte/ponte/internal/bug"
	"github.com/ponte/ponte/replay"
)

// componentJob is a finished game to replay for its final components.
type componentJob struct {
	size   int
	supply string
	moves  string
}

// componentCounter replays finished games on one goroutine per core and counts their
// final components by board size and number of islands.
type componentCounter struct {
	jobs   chan []componentJob
	batch  []componentJob
	wg     sync.WaitGroup
	mu     sync.Mutex
	counts map[int][]int // size -> islands -> components
	err    error
	cancel context.CancelFunc
	ctx    context.Context
}

func newComponentCounter(ctx context.Context) *componentCounter {
	c := &componentCounter{jobs: make(chan []componentJob, 4), counts: map[int][]int{}}
	c.ctx, c.cancel = context.WithCancel(ctx)
	for range runtime.NumCPU() {
		c.wg.Add(1)
		go c.work()
	}
	return c
}

func (c *componentCounter) send(j componentJob) {
	c.batch = append(c.batch, j)
	if len(c.batch) == 256 {
		c.flush()
	}
}

func (c *componentCounter) flush() {
	if len(c.batch) > 0 {
		select {
		case c.jobs <- c.batch:
		case <-c.ctx.Done():
		}
		c.batch = nil
	}
}

// wait replays what is left and returns the counts.
func (c *componentCounter) wait() (map[int][]int, error) {
	c.flush()
	close(c.jobs)
	c.wg.Wait()
	c.cancel()
	return c.counts, c.err
}

// stop abandons the count.
func (c *componentCounter) stop() {
	c.cancel()
	c.batch = nil
	close(c.jobs)
	c.wg.Wait()
}

func (c *componentCounter) work() {
	defer bug.Recover()
	defer c.wg.Done()
	var g replay.Game
	local := map[int][]int{}
	var err error
	for batch := range c.jobs {
		for _, j := range batch {
			if err == nil && c.ctx.Err() == nil {
				err = components(&g, j, local)
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil && c.err == nil {
		c.err = err
		c.cancel()
	}
	for size, byIslands := range local {
		total := c.counts[size]
		for len(total) < len(byIslands) {
			total = append(total, 0)
		}
		for k, n := range byIslands {
			total[k] += n
		}
		c.counts[size] = total
	}
}

// components replays one finished game and counts its components by islands into counts.
// A component's islands are found from its islands' cells: every tile of a 4-tile group
// names its component, and each component is counted once.
func components(g *replay.Game, j componentJob, counts map[int][]int) error {
	sup, ok := replay.ParseSupply(j.supply)
	if !ok {
		return fmt.Errorf("a stored game with supply %q", j.supply)
	}
	if err := g.Reset(j.size, sup); err != nil {
		return err
	}
	for tok := range strings.FieldsSeq(j.moves) {
		if err := g.PlayText(tok); err != nil {
			return fmt.Errorf("replaying a stored legal game: %w", err)
		}
	}
	byIslands := counts[j.size]
	var seen [2][]int
	for row := range j.size {
		for col := range j.size {
			cell := replay.CellAt(col, row)
			colour, ok := g.At(cell)
			if !ok || g.GroupSize(cell) != 4 {
				continue
			}
			id, islands := g.ComponentOf(cell)
			if slices.Contains(seen[colour], id) {
				continue
			}
			seen[colour] = append(seen[colour], id)
			for len(byIslands) <= islands {
				byIslands = append(byIslands, 0)
			}
			byIslands[islands]++
		}
	}
	counts[j.size] = byIslands
	return nil
}
