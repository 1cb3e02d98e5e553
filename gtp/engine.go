// Package gtp speaks the Go Text Protocol (version 2, as Hex engines such as MoHex speak
// it) for Ponte del Diavolo: Engine serves a bot over a text stream (ponte gtp), and
// Player drives an engine in another process as a bot.Bot (ponte match gtp:…). The
// commands, the framing and the extensions are documented in docs/protocol.md.
package gtp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/ponte/ponte/bot"
	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/replay"
)

// MaxLine is the longest command line read, in bytes; a longer one is answered with an
// error and skipped, so that memory stays bounded whatever the input.
const MaxLine = 64 << 10

// Config is what an Engine plays with.
type Config struct {
	// Bot is the player of genmove.
	Bot bot.Bot
	// Name and Version are the answers to name and version.
	Name, Version string
	// Size and Supply are the board of the first game (boardsize and ponte-supply
	// change them).
	Size   int
	Supply game.Supply
	// Seed seeds the random source of the bot's turns until set_seed.
	Seed uint64
}

// Engine answers GTP commands about one game at a time.
type Engine struct {
	cfg    Config
	game   *replay.Game
	moves  []replay.Move
	rng    *rand.Rand
	clock  clock
	quit   bool
	answer strings.Builder
}

// NewEngine returns an engine with an empty board of cfg.Size.
func NewEngine(cfg Config) (*Engine, error) {
	if cfg.Bot == nil {
		return nil, errors.New("gtp: the engine needs a bot")
	}
	g, err := replay.NewGame(cfg.Size, cfg.Supply)
	if err != nil {
		return nil, err
	}
	if cfg.Name == "" {
		cfg.Name = "ponte"
	}
	return &Engine{cfg: cfg, game: g, rng: newRand(cfg.Seed)}, nil
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x677470)) } // "gtp"

// Serve reads commands from r, one a line, and writes each answer to w, until quit or the
// end of r. It returns an error only when r or w fails.
func (e *Engine) Serve(r io.Reader, w io.Writer) error {
	br := bufio.NewReaderSize(r, 4096)
	bw := bufio.NewWriter(w)
	for !e.quit {
		line, long, err := readLine(br)
		if len(line) > 0 || long {
			if id, text, ok := e.Exec(line, long); ok {
				writeAnswer(bw, id, text)
				if ferr := bw.Flush(); ferr != nil {
					return ferr
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// readLine reads one line without its end; long is true when it was longer than MaxLine
// (its text is then dropped).
func readLine(br *bufio.Reader) (line []byte, long bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLine+1 {
			long = true
			line = line[:0]
		} else {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if long {
			line = nil
		}
		return line, long, err
	}
}

// writeAnswer writes "=ID TEXT" or "?ID TEXT" and the blank line that ends an answer.
func writeAnswer(w *bufio.Writer, id string, text result) {
	if text.err {
		w.WriteByte('?')
	} else {
		w.WriteByte('=')
	}
	w.WriteString(id)
	if text.text != "" {
		if !strings.HasPrefix(text.text, "\n") {
			w.WriteByte(' ')
		}
		w.WriteString(text.text)
	}
	w.WriteString("\n\n")
}

type result struct {
	text string
	err  bool
}

func ok(text string) result { return result{text: text} }
func fail(format string, args ...any) result {
	return result{text: fmt.Sprintf(format, args...), err: true}
}
func arity(cmd string, want string) result { return fail("%s takes %s", cmd, want) }

// clean is a command line as GTP reads it: control characters removed but tabs, which
// become spaces, and the comment from # on dropped.
func clean(line []byte) string {
	var b strings.Builder
	for _, c := range line {
		switch {
		case c == '#':
			return strings.TrimSpace(b.String())
		case c == '\t':
			b.WriteByte(' ')
		case c < 32 || c == 127:
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// Exec runs one command line (without its end) and returns the id to echo and the
// answer; ok is false for a line that is empty or a comment, which gets no answer. long
// says that the line was over MaxLine.
func (e *Engine) Exec(line []byte, long bool) (id string, r result, ok bool) {
	if long {
		return "", fail("line longer than %d bytes", MaxLine), true
	}
	text := clean(line)
	if text == "" {
		return "", result{}, false
	}
	fields := strings.Fields(text)
	if n := fields[0]; n[0] >= '0' && n[0] <= '9' {
		if _, err := strconv.ParseUint(n, 10, 63); err != nil || len(fields) == 1 {
			return "", fail("cannot read the command %q: an id is a number followed by a command", short(text)), true
		}
		id, fields = n, fields[1:]
	}
	return id, e.run(fields[0], fields[1:]), true
}

// short is s cut to 40 bytes, for an answer that quotes it.
func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// commands are the commands known, in the order list_commands gives them.
var commands = []string{
	"protocol_version", "name", "version", "known_command", "list_commands", "quit",
	"boardsize", "clear_board", "play", "genmove", "undo", "showboard", "final_score",
	"time_settings", "time_left", "set_seed", "ponte-supply", "ponte-analyze",
}

func known(name string) bool {
	for _, c := range commands {
		if c == name {
			return true
		}
	}
	return false
}

func (e *Engine) run(name string, args []string) result {
	switch name {
	case "protocol_version":
		return ok("2")
	case "name":
		return ok(e.cfg.Name)
	case "version":
		return ok(e.cfg.Version)
	case "known_command":
		if len(args) != 1 {
			return arity(name, "one command name")
		}
		return ok(strconv.FormatBool(known(args[0])))
	case "list_commands":
		return ok(strings.Join(commands, "\n"))
	case "quit":
		e.quit = true
		return ok("")
	case "boardsize":
		if len(args) != 1 {
			return arity(name, "one size")
		}
		n, err := strconv.Atoi(args[0])
		if err != nil || n < game.MinSize || n > game.MaxSize {
			return fail("unacceptable size")
		}
		e.cfg.Size = n
		e.reset()
		return ok("")
	case "clear_board":
		if len(args) != 0 {
			return arity(name, "no argument")
		}
		e.reset()
		return ok("")
	case "ponte-supply":
		if len(args) != 1 {
			return arity(name, `"unlimited" or "40/15"`)
		}
		s, good := game.ParseSupply(args[0])
		if !good {
			return fail(`unknown supply %q: "unlimited" or "40/15"`, short(args[0]))
		}
		e.cfg.Supply = s
		e.reset()
		return ok("")
	case "set_seed":
		if len(args) != 1 {
			return arity(name, "one seed")
		}
		n, err := strconv.ParseUint(args[0], 10, 64)
		if err != nil {
			return fail("the seed must be a number from 0 to %d", uint64(1<<64-1))
		}
		e.rng = newRand(n)
		return ok("")
	case "play":
		if len(args) != 2 {
			return arity(name, "a colour and a turn (play light d4,e5)")
		}
		return e.play(args[0], args[1])
	case "genmove":
		if len(args) != 1 {
			return arity(name, "a colour")
		}
		return e.genmove(args[0])
	case "undo":
		if len(args) != 0 {
			return arity(name, "no argument")
		}
		if len(e.moves) == 0 {
			return fail("cannot undo")
		}
		e.replayTo(len(e.moves) - 1)
		return ok("")
	case "showboard":
		return ok("\n" + e.board())
	case "final_score":
		return ok(finalScore(e.game))
	case "time_settings":
		if len(args) != 3 {
			return arity(name, "main time, byo-yomi time and byo-yomi stones")
		}
		return e.clock.settings(args)
	case "time_left":
		if len(args) != 3 {
			return arity(name, "a colour, a time and stones")
		}
		c, good := parseColour(args[0])
		if !good {
			return badColour(args[0])
		}
		return e.clock.setLeft(c, args[1:])
	case "ponte-analyze":
		return e.analyze(args)
	}
	return fail("unknown command %q", short(name))
}

func (e *Engine) reset() {
	e.game.Reset(e.cfg.Size, e.cfg.Supply)
	e.moves = e.moves[:0]
}

// replayTo replays the first n turns of the game.
func (e *Engine) replayTo(n int) {
	e.game.Reset(e.cfg.Size, e.cfg.Supply)
	for _, m := range e.moves[:n] {
		if err := e.game.Play(m); err != nil {
			panic(err) // a turn the engine accepted before
		}
	}
	e.moves = e.moves[:n]
}

// parseColour reads light, l, dark or d, in any case (also black and white, as Hex GUIs
// send them: black is the first player, Light).
func parseColour(s string) (replay.Colour, bool) {
	switch strings.ToLower(s) {
	case "light", "l", "black", "b":
		return replay.Light, true
	case "dark", "d", "white", "w":
		return replay.Dark, true
	}
	return replay.Light, false
}

func badColour(s string) result {
	return fail("invalid colour %q: light or dark", short(s))
}

// toMove checks that c is the colour the rules give the next turn (R1).
func (e *Engine) toMove(s string) result {
	c, good := parseColour(s)
	if !good {
		return badColour(s)
	}
	if e.game.Over() {
		return fail("game is over")
	}
	if want := e.game.ToMove(); c != want {
		return fail("wrong colour: turn %d is %s's (R1)", e.game.Turn()+1, want)
	}
	return result{}
}

func (e *Engine) play(colour, turn string) result {
	if r := e.toMove(colour); r.err {
		return r
	}
	m, err := e.game.PlayTurn(0, turn)
	if err != nil {
		return fail("illegal move: %s", err)
	}
	e.moves = append(e.moves, m)
	return ok("")
}

func (e *Engine) genmove(colour string) result {
	if r := e.toMove(colour); r.err {
		return r
	}
	if s, clocked := e.cfg.Bot.(bot.Clocked); clocked {
		defer e.clock.budget(s, e.game.ToMove())()
	}
	m := e.cfg.Bot.Turn(e.game, e.rng)
	if err := e.game.Play(m); err != nil {
		return fail("engine error: %s chose the illegal turn %s: %s", e.cfg.Bot.Name(), m, err)
	}
	e.moves = append(e.moves, m)
	return ok(m.String())
}

func (e *Engine) analyze(args []string) result {
	if len(args) != 1 {
		return arity("ponte-analyze", "a colour")
	}
	s, reads := e.cfg.Bot.(bot.Analyser)
	if !reads {
		return fail("%s does not search: ponte-analyze needs a sage or arch bot", e.cfg.Bot.Name())
	}
	if r := e.toMove(args[0]); r.err {
		return r
	}
	a := s.Analyse(e.game, nil, e.rng)
	win := a.Light
	if e.game.ToMove() == replay.Dark {
		win = 1 - win
	}
	return ok(fmt.Sprintf("win %.3f best %s value %.3f visits %d playouts %d", win, a.Best, a.BestQ, a.BestN, a.Playouts))
}

// finalScore is GTP's score: "L+3", "D+1", "0" for a draw; with equal scores decided by
// islands or bridges (R7), "L+0 islands".
func finalScore(g *replay.Game) string {
	s := g.Score()
	res, by := g.Standing()
	switch {
	case res == game.Draw:
		return "0"
	case s[0] > s[1]:
		return "L+" + strconv.Itoa(s[0]-s[1])
	case s[1] > s[0]:
		return "D+" + strconv.Itoa(s[1]-s[0])
	case res == game.LightWins:
		return "L+0 " + by.String()
	}
	return "D+0 " + by.String()
}

// board draws the position: rows N … 1, columns a …; L and D are tiles, ~ a cell under
// a bridge, . an empty cell; then the bridges, the supply left and whose turn it is.
func (e *Engine) board() string {
	g := e.game
	n := g.Size()
	var b strings.Builder
	cols := func() {
		b.WriteString("   ")
		for c := range n {
			b.WriteByte(' ')
			b.WriteByte(byte('a' + c))
		}
		b.WriteByte('\n')
	}
	cols()
	for row := n - 1; row >= 0; row-- {
		fmt.Fprintf(&b, "%2d ", row+1)
		for col := range n {
			c := game.CellAt(col, row)
			ch := byte('.')
			if colour, has := g.At(c); has {
				ch = "LD"[colour]
			} else if g.Blocked(c) {
				ch = '~'
			}
			b.WriteByte(' ')
			b.WriteByte(ch)
		}
		fmt.Fprintf(&b, " %2d\n", row+1)
	}
	cols()
	for _, c := range [2]replay.Colour{replay.Light, replay.Dark} {
		fmt.Fprintf(&b, "%s bridges:", c)
		bridges := g.BuiltBridges(c)
		if len(bridges) == 0 {
			b.WriteString(" none")
		}
		for _, m := range bridges {
			b.WriteString(" " + m.String())
		}
		b.WriteByte('\n')
	}
	if g.Supply() == game.Supply40x15 {
		fmt.Fprintf(&b, "supply 40/15: Light %d tiles, Dark %d tiles, %d bridges left\n",
			g.TilesLeft(replay.Light), g.TilesLeft(replay.Dark), g.BridgesLeft())
	}
	s := g.Score()
	fmt.Fprintf(&b, "score Light %d, Dark %d; ", s[0], s[1])
	switch {
	case g.Over():
		fmt.Fprintf(&b, "game over after turn %d", g.Turn())
	case g.Swapped():
		fmt.Fprintf(&b, "turn %d, %s to move (swapped)", g.Turn()+1, g.ToMove())
	default:
		fmt.Fprintf(&b, "turn %d, %s to move", g.Turn()+1, g.ToMove())
	}
	return b.String()
}

// clock holds what time_settings and time_left said.
type clock struct {
	set        bool
	main, byo  time.Duration
	stones     int
	left       [2]time.Duration
	leftStones [2]int
	leftKnown  [2]bool
}

// turnsAhead is how many more turns of its own a bot plans for when it spends main time:
// a turn's budget is a 20th of what is left.
const turnsAhead = 20

func seconds(s string) (time.Duration, bool) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > 1e7 {
		return 0, false
	}
	return time.Duration(f * float64(time.Second)), true
}

func (k *clock) settings(args []string) result {
	main, ok1 := seconds(args[0])
	byo, ok2 := seconds(args[1])
	stones, err := strconv.Atoi(args[2])
	if !ok1 || !ok2 || err != nil || stones < 0 {
		return fail("time_settings takes seconds of main time, seconds of byo-yomi and a number of stones, not %q", short(strings.Join(args, " ")))
	}
	*k = clock{set: byo > 0 || main > 0, main: main, byo: byo, stones: stones}
	return ok("")
}

func (k *clock) setLeft(c replay.Colour, args []string) result {
	t, ok1 := seconds(args[0])
	stones, err := strconv.Atoi(args[1])
	if !ok1 || err != nil || stones < 0 {
		return fail("time_left takes a colour, seconds and a number of stones, not %q", short(strings.Join(args, " ")))
	}
	k.left[c], k.leftStones[c], k.leftKnown[c] = t, stones, true
	return ok("")
}

// turnBudget is the time for c's next turn, and false when the clock sets none.
func (k *clock) turnBudget(c replay.Colour) (time.Duration, bool) {
	if !k.set {
		return 0, false
	}
	t, stones := k.main, 0
	if k.main == 0 {
		t, stones = k.byo, k.stones
	}
	if k.leftKnown[c] {
		t, stones = k.left[c], k.leftStones[c]
	}
	var d time.Duration
	if stones > 0 { // in byo-yomi: its time shared by the stones still to play
		d = t / time.Duration(stones)
	} else {
		d = t / turnsAhead
		if k.stones > 0 {
			d += k.byo / time.Duration(k.stones)
		}
	}
	return max(d*9/10, time.Millisecond), true
}

// budget sets s's time per turn from the clock for c's turn, and returns what restores it.
func (k *clock) budget(s bot.Clocked, c replay.Colour) func() {
	d, set := k.turnBudget(c)
	if !set {
		return func() {}
	}
	old := s.SetTimePerTurn(d)
	return func() { s.SetTimePerTurn(old) }
}
