package gtp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// DefaultTimeout is how long a Player waits for an answer unless told otherwise.
const DefaultTimeout = time.Minute

// EngineError is what went wrong with an engine: it died, answered garbage or too late,
// refused a command or chose an illegal turn.
type EngineError struct {
	Engine string // the player's name, "gtp:ponte gtp --bot sage-50"
	Turn   int    // the turn being played, 0 outside a game
	Err    error
}

func (e *EngineError) Error() string {
	if e.Turn == 0 {
		return fmt.Sprintf("engine %s: %v", e.Engine, e.Err)
	}
	return fmt.Sprintf("engine %s at turn %d: %v", e.Engine, e.Turn, e.Err)
}

func (e *EngineError) Unwrap() error { return e.Err }

// ErrRefused is the error of a command the engine answered with "? message".
var ErrRefused = errors.New("refused")

// Player is a bot.Bot that plays by asking an engine over GTP: before each genmove it
// brings the engine's game up to the position it is given (boardsize, ponte-supply,
// clear_board and set_seed at a new game, then play for each turn since its last). A
// Player is used by one goroutine at a time. After an error its turns are passes and Err
// says what went wrong; a match reports Err.
type Player struct {
	name    string
	w       io.Writer
	in      io.Closer
	lines   chan string
	readErr error // set before lines is closed
	timeout time.Duration
	known   map[string]bool
	mirror  *replay.Game
	err     error
	// For a process: its end (after the reader saw the end of its output), its error,
	// and the tail of its standard error.
	proc    *exec.Cmd
	exited  chan struct{}
	waitErr error
	stderr  *tail
	closed  bool
}

// NewPlayer returns a player named name that writes commands to w and reads answers from
// r, each within timeout (DefaultTimeout when 0). It asks for the engine's commands.
func NewPlayer(name string, r io.Reader, w io.WriteCloser, timeout time.Duration) (*Player, error) {
	p := newPlayer(name, r, w, timeout, nil)
	return p, p.handshake()
}

func newPlayer(name string, r io.Reader, w io.WriteCloser, timeout time.Duration, onEnd func()) *Player {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	p := &Player{name: name, w: w, in: w, lines: make(chan string, 16), timeout: timeout}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 4096), MaxLine+2)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		p.readErr = sc.Err()
		if onEnd != nil {
			onEnd()
		}
		close(p.lines)
	}()
	return p
}

// Start starts the engine argv[0] with the arguments argv[1:] in a process of its own
// and returns its player, named name. The process is in a process group of its own, so
// that Ctrl-C reaches the match, which closes it; it ends when its standard input does.
func Start(name string, argv []string, timeout time.Duration) (*Player, error) {
	if len(argv) == 0 {
		return nil, &EngineError{Engine: name, Err: errors.New("no command")}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, &EngineError{Engine: name, Err: err}
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, &EngineError{Engine: name, Err: err}
	}
	t := &tail{}
	cmd.Stderr = t
	if err := cmd.Start(); err != nil {
		return nil, &EngineError{Engine: name, Err: err}
	}
	exited := make(chan struct{})
	var p *Player
	p = newPlayer(name, stdout, stdin, timeout, func() {
		p.waitErr = cmd.Wait()
		close(exited)
	})
	p.proc, p.exited, p.stderr = cmd, exited, t
	if err := p.handshake(); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

func (p *Player) handshake() error {
	v, err := p.Command("protocol_version")
	if err == nil && v != "2" {
		err = p.fail(fmt.Errorf("protocol_version %q: GTP version 2 is needed", v))
	}
	if err != nil {
		return err
	}
	list, err := p.Command("list_commands")
	if err != nil {
		return err
	}
	p.known = map[string]bool{}
	for _, c := range strings.Fields(list) {
		p.known[c] = true
	}
	for _, c := range []string{"boardsize", "clear_board", "play", "genmove"} {
		if !p.known[c] {
			return p.fail(fmt.Errorf("the engine does not know %s", c))
		}
	}
	return nil
}

// Name returns the player's name.
func (p *Player) Name() string { return p.name }

// Err returns the first error of the player's turns, an *EngineError; nil when none.
func (p *Player) Err() error { return p.err }

func (p *Player) fail(err error) error {
	e := &EngineError{Engine: p.name, Err: err}
	if p.mirror != nil {
		e.Turn = p.mirror.Turn() + 1
	}
	if p.err == nil {
		p.err = e
	}
	return e
}

// Command sends one command line and returns the text of its answer, or an
// *EngineError: an answer "? message" (ErrRefused), no answer within the timeout (the
// process is then killed), the engine's end, or an answer that is not one.
func (p *Player) Command(line string) (string, error) {
	if p.closed {
		return "", p.fail(errors.New("the player is closed"))
	}
	if _, err := io.WriteString(p.w, line+"\n"); err != nil {
		return "", p.fail(fmt.Errorf("%s: cannot write to the engine: %v%s", line, err, p.died()))
	}
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	var answer []string
	for {
		var s string
		var open bool
		select {
		case s, open = <-p.lines:
		case <-timer.C:
			p.kill()
			return "", p.fail(fmt.Errorf("%s: no answer within %s (the engine was stopped)", line, p.timeout))
		}
		if !open {
			if p.readErr != nil {
				return "", p.fail(fmt.Errorf("%s: cannot read the answer: %v%s", line, p.readErr, p.died()))
			}
			return "", p.fail(fmt.Errorf("%s: the engine ended before it answered%s", line, p.died()))
		}
		if len(answer) == 0 {
			if s == "" {
				continue
			}
			if s[0] != '=' && s[0] != '?' {
				return "", p.fail(fmt.Errorf("%s: the answer %q does not start with = or ?", line, short(s)))
			}
		} else if s == "" {
			break
		}
		answer = append(answer, s)
	}
	head := answer[0]
	text := strings.TrimLeft(head[1:], "0123456789")
	text = strings.TrimPrefix(text, " ")
	if len(answer) > 1 {
		text += "\n" + strings.Join(answer[1:], "\n")
	}
	text = strings.TrimSpace(text)
	if head[0] == '?' {
		return "", p.fail(fmt.Errorf("%s: %w: %s", line, ErrRefused, text))
	}
	return text, nil
}

// died says how the process ended, for an error: its status and the end of its
// standard error.
func (p *Player) died() string {
	if p.proc == nil {
		return ""
	}
	select {
	case <-p.exited:
	case <-time.After(time.Second):
		return ""
	}
	s := ""
	if p.waitErr != nil {
		s = " (" + p.waitErr.Error() + ")"
	}
	if t := p.stderr.String(); t != "" {
		s += "; its standard error ends: " + strconv.Quote(t)
	}
	return s
}

func (p *Player) kill() {
	if p.proc != nil && p.proc.Process != nil {
		p.proc.Process.Kill()
	}
}

// Close asks the engine to quit and closes its input; a process that has not ended
// within a few seconds is killed. It waits for the process's end.
func (p *Player) Close() error {
	if p.closed {
		return nil
	}
	if p.err == nil {
		p.Command("quit")
	}
	p.closed = true
	p.in.Close()
	if p.proc == nil {
		return nil
	}
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		p.kill()
		<-p.exited
	}
	return nil
}

// Turn brings the engine's game up to g and returns the engine's turn for the colour to
// move. After an error it returns a pass, and Err tells the error.
func (p *Player) Turn(g *replay.Game, rng *rand.Rand) replay.Move {
	if p.err != nil {
		return replay.PassMove
	}
	if err := p.sync(g, rng); err != nil {
		return replay.PassMove
	}
	c := g.ToMove()
	text, err := p.Command("genmove " + colourWord(c))
	if err != nil {
		return replay.PassMove
	}
	m, err := replay.ParseMove(text, g.Size())
	if err == nil {
		err = p.mirror.Play(m)
	}
	if err != nil {
		p.fail(fmt.Errorf("genmove %s answered %q: %w", colourWord(c), short(text), err))
		return replay.PassMove
	}
	return m
}

func colourWord(c replay.Colour) string {
	if c == replay.Light {
		return "light"
	}
	return "dark"
}

// sync sends the turns played in g since the engine's game, or starts a new game.
func (p *Player) sync(g *replay.Game, rng *rand.Rand) error {
	m := p.mirror
	if m == nil || m.Size() != g.Size() || m.Supply() != g.Supply() || m.Turn() >= g.Turn() || g.Turn()-m.Turn() > 2 || !p.follow(g, false) {
		if g.Turn() > 2 {
			err := p.fail(fmt.Errorf("cannot follow the game: its turn %d is not one turn of each colour after the engine's", g.Turn()))
			p.mirror = nil
			return err
		}
		if err := p.newGame(g, rng); err != nil {
			return err
		}
	}
	if !p.follow(g, true) {
		return p.fail(errors.New("cannot follow the game: the position is not one turn of each colour after the engine's"))
	}
	return nil
}

func (p *Player) newGame(g *replay.Game, rng *rand.Rand) error {
	p.mirror, _ = replay.NewGame(g.Size(), g.Supply())
	cmds := []string{"boardsize " + strconv.Itoa(g.Size())}
	if p.known["ponte-supply"] {
		cmds = append(cmds, "ponte-supply "+g.Supply().String())
	} else if g.Supply() != game.Unlimited {
		return p.fail(errors.New("the engine does not know ponte-supply, needed for the supply 40/15"))
	}
	cmds = append(cmds, "clear_board")
	if p.known["set_seed"] {
		cmds = append(cmds, "set_seed "+strconv.FormatUint(rng.Uint64(), 10))
	}
	for _, c := range cmds {
		if _, err := p.Command(c); err != nil {
			return err
		}
	}
	return nil
}

// follow finds the turns played in g since the mirror, one per colour at most, and, when
// send is true, plays them on the mirror and sends them; it reports whether they were
// found and g's position is then the mirror's.
func (p *Player) follow(g *replay.Game, send bool) bool {
	m := p.mirror.Clone()
	var played [2]bool
	for m.Turn() < g.Turn() {
		c := m.ToMove()
		if played[c] {
			return false
		}
		played[c] = true
		t := turnSince(m, g, c)
		if m.Play(t) != nil {
			return false
		}
		if send {
			if _, err := p.Command("play " + colourWord(c) + " " + t.String()); err != nil {
				return false
			}
		}
	}
	if !samePosition(m, g) {
		return false
	}
	if send {
		p.mirror = m
	}
	return true
}

// turnSince is c's turn that leads from m towards g: the swap, two new tiles, a new
// bridge, or else a pass.
func turnSince(m, g *replay.Game, c replay.Colour) replay.Move {
	if g.Swapped() && !m.Swapped() && m.Turn() == 1 {
		return replay.SwapMove
	}
	if mb, gb := m.BuiltBridges(c), g.BuiltBridges(c); len(gb) > len(mb) {
		return gb[len(mb)]
	}
	var cells []game.Cell
	for row := range g.Size() {
		for col := range g.Size() {
			x := game.CellAt(col, row)
			gc, gok := g.At(x)
			_, mok := m.At(x)
			if gok && !mok && gc == c {
				cells = append(cells, x)
			}
		}
	}
	if len(cells) == 2 {
		return replay.TilesMove(cells[0], cells[1])
	}
	return replay.PassMove
}

func samePosition(a, b *replay.Game) bool {
	if a.Turn() != b.Turn() || a.Swapped() != b.Swapped() || a.Over() != b.Over() || a.Score() != b.Score() || a.Bridges() != b.Bridges() {
		return false
	}
	for row := range a.Size() {
		for col := range a.Size() {
			x := game.CellAt(col, row)
			ac, aok := a.At(x)
			bc, bok := b.At(x)
			if aok != bok || aok && ac != bc {
				return false
			}
		}
	}
	return true
}

// tail keeps the last 512 bytes written to it: the end of an engine's standard error.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > 512 {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-512:]...)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}
