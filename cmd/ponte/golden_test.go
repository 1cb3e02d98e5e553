package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var goldenLong = flag.Bool("golden-long", false, "also replay the long bot golden sets (sage-400, mcts-400)")

// goldenSet is one line of testdata/golden/sets.txt: an archive's name and the
// `ponte selfplay` arguments that made it with the base build.
type goldenSet struct {
	name string
	args []string
}

func goldenSets(t *testing.T) []goldenSet {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "golden", "sets.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sets []goldenSet
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, args, ok := strings.Cut(line, "|")
		if !ok {
			t.Fatalf("sets.txt: no | in %q", line)
		}
		sets = append(sets, goldenSet{name, strings.Fields(args)})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(sets) == 0 {
		t.Fatal("sets.txt names no set")
	}
	return sets
}

func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "golden", name+".ponte.gz"))
	if err != nil {
		t.Fatalf("%v (the goldens are made by scripts/golden-bots.sh with the base build; see testdata/golden/README.md)", err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// firstDiff says where two archives part: the first differing line, numbered from 1.
func firstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl || i >= len(w) || i >= len(g) {
			return "line " + strconv.Itoa(i+1) + ":\n  golden: " + wl + "\n  now:    " + gl
		}
	}
	return "no line differs"
}

// TestGoldenBots: a bot's name keeps its games. Each seeded `ponte selfplay` set is played
// with the current code and must be byte-identical to the archive the base build wrote
// (testdata/golden/README.md). There is deliberately no -update: a golden is remade only
// from the base build, never from the code under test. Each set is played with --workers 1
// and again with 3, as the archive must not depend on the workers. The timed form sage-Nms
// depends on the clock and has no golden.
func TestGoldenBots(t *testing.T) {
	for _, s := range goldenSets(t) {
		t.Run(s.name, func(t *testing.T) {
			if strings.HasPrefix(s.name, "long-") && !*goldenLong {
				t.Skip("a long set: run with -golden-long")
			}
			want := readGolden(t, s.name)
			for _, workers := range []string{"1", "3"} {
				args := append([]string{"selfplay", "--quiet", "--workers", workers}, s.args...)
				got, errOut, status := runPonte(t, "", args...)
				if status != exitOK {
					t.Fatalf("ponte %s: exit status %d, stderr %q", strings.Join(args, " "), status, errOut)
				}
				if !bytes.Equal([]byte(got), want) {
					t.Fatalf("--workers %s: the games differ from the base build's; %s",
						workers, firstDiff(want, []byte(got)))
				}
			}
		})
	}
}

// TestGoldenBotsLegal: every golden game is legal (`ponte verify` exits 0).
func TestGoldenBotsLegal(t *testing.T) {
	for _, s := range goldenSets(t) {
		path := filepath.Join("testdata", "golden", s.name+".ponte.gz")
		if _, errOut, status := runPonte(t, "", "verify", path); status != exitOK {
			t.Errorf("ponte verify %s: exit status %d, stderr %q", path, status, errOut)
		}
	}
}
