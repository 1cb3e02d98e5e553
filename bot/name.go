package bot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// name is a bot's name read: its kind (one of Names) and, for "mcts-N", "sage-N",
// "sage-Nms", "arch-N", "arch-Nms" (and lore-…, the same), its budget, and for "arch-…-tK" and
// "arch-…-sK" its threads.
type name struct {
	kind     string
	playouts int           // N of mcts-N, sage-N and arch-N; 0 otherwise
	perTurn  time.Duration // N ms of sage-Nms and arch-Nms; 0 otherwise
	budget   bool          // the name carries a budget
	threads  int           // K of arch-…-tK and arch-…-sK; 0 otherwise
	shared   bool          // arch-…-sK: the threads share one tree
}

// ParseName reports whether name is a bot New knows, without making the bot: nil, or the
// error New would return.
func ParseName(name string) error {
	_, err := parseName(name)
	return err
}

// parseName reads a bot's name (see New).
func parseName(s string) (name, error) {
	if slices.Contains(Names, s) {
		return name{kind: s}, nil
	}
	if budget, ok := strings.CutPrefix(s, "sage-"); ok {
		n, perTurn, ok := parseBudget(budget)
		if !ok {
			return name{}, fmt.Errorf("bot %q: the budget after sage- must be a number of playouts from 1 to %d, or of milliseconds with ms (sage-100ms) up to %d", s, MaxPlayouts, MaxTimePerTurn.Milliseconds())
		}
		return name{kind: "sage", playouts: n, perTurn: perTurn, budget: true}, nil
	}
	kind, budget, ok := "arch", "", false
	if budget, ok = strings.CutPrefix(s, "arch-"); !ok {
		kind, budget, ok = "lore", strings.TrimPrefix(s, "lore-"), strings.HasPrefix(s, "lore-") // arch with learned priors
	}
	if ok {
		bad := fmt.Errorf("bot %q: the budget after %s- must be a number of playouts from 1 to %d, or of milliseconds with ms (%s-100ms) up to %d, optionally followed by -tK for K threads from 1 to %d with a tree each or -sK for K threads on one tree", s, kind, MaxPlayouts, kind, MaxTimePerTurn.Milliseconds(), MaxThreads)
		out := name{kind: kind, budget: true}
		b, th, ok := strings.Cut(budget, "-t")
		if !ok {
			b, th, ok = strings.Cut(budget, "-s")
			out.shared = ok
		}
		if ok {
			k, err := strconv.Atoi(th)
			if err != nil || k < 1 || k > MaxThreads || strconv.Itoa(k) != th {
				return name{}, bad
			}
			budget, out.threads = b, k
		}
		if out.playouts, out.perTurn, ok = parseBudget(budget); !ok {
			return name{}, bad
		}
		return out, nil
	}
	if budget, ok := strings.CutPrefix(s, "mcts-"); ok {
		n, err := strconv.Atoi(budget)
		if err != nil || n < 1 || n > MaxPlayouts || strconv.Itoa(n) != budget {
			return name{}, fmt.Errorf("bot %q: the budget after mcts- must be a number of playouts from 1 to %d", s, MaxPlayouts)
		}
		return name{kind: "mcts", playouts: n, budget: true}, nil
	}
	return name{}, fmt.Errorf("unknown bot %q (known: %s, or mcts-N, sage-N, arch-N and lore-N for a budget of N playouts, sage-Nms, arch-Nms and lore-Nms for N milliseconds a turn, arch-…-tK for K threads with a tree each, arch-…-sK for K threads on one tree)", s, strings.Join(Names, ", "))
}

// parseBudget reads a budget: N playouts (1 to MaxPlayouts) or Nms, N milliseconds a turn
// (up to MaxTimePerTurn); one of the two results is 0.
func parseBudget(text string) (playouts int, perTurn time.Duration, ok bool) {
	ms, timed := strings.CutSuffix(text, "ms")
	if timed {
		text = ms
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || strconv.Itoa(n) != text ||
		(!timed && n > MaxPlayouts) || (timed && time.Duration(n)*time.Millisecond > MaxTimePerTurn) {
		return 0, 0, false
	}
	if timed {
		return 0, time.Duration(n) * time.Millisecond, true
	}
	return n, 0, true
}
