package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ponte gtp answers its input line by line; its flags are checked.
func TestGTPCommand(t *testing.T) {
	out, errOut, status := runPonte(t, "1 name\nboardsize 6\nplay light c3,c4\ngenmove dark\ngenmove purple\nfoo bar\nquit\nname\n",
		"gtp", "--bot", "greedy", "--seed", "5")
	want := "=1 ponte\n\n=\n\n=\n\n= "
	if status != exitOK || !strings.HasPrefix(out, want) || !strings.HasSuffix(out, "? invalid colour \"purple\": light or dark\n\n? unknown command \"foo\"\n\n=\n\n") {
		t.Errorf("exit %d: %q %s", status, out, errOut)
	}
	if n := strings.Count(out, "\n\n"); n != 7 {
		t.Errorf("%d answers to 7 commands: %q", n, out)
	}
	for _, args := range [][]string{{"--bot", "nobody"}, {"--size", "4"}, {"--supply", "9/9"}, {"extra"}} {
		if _, errOut, status := runPonte(t, "", append([]string{"gtp"}, args...)...); status != exitUsage {
			t.Errorf("%v: exit %d: %s", args, status, errOut)
		}
	}
}

// engineLine is the player of ponte match that runs this test binary as ponte gtp.
func engineLine(t *testing.T, args string) string {
	t.Setenv("PONTE_TEST_MAIN", "1") // the engine's process is the test binary as ponte
	return "gtp:'" + strings.ReplaceAll(testBinary(t), "'", `'\''`) + "' gtp " + args
}

func testBinary(t *testing.T) string {
	p, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A match through ponte gtp plays legal games, as ponte verify reads them back from
// --out, the same for a seed whatever the workers; an engine that cannot start is a
// usage error.
func TestMatchGTP(t *testing.T) {
	dir := t.TempDir()
	var archives []string
	for _, workers := range []string{"1", "2"} {
		path := filepath.Join(dir, "m"+workers+".ponte")
		out, errOut, status := runPonte(t, "", "match", engineLine(t, "--bot sage-10"), "greedy",
			"--games", "8", "--size", "6", "--seed", "4", "--workers", workers, "--out", path, "-q")
		if status != exitOK || !strings.Contains(out, "8 games (4 pairs)") || !strings.Contains(out, "gtp:") {
			t.Fatalf("exit %d: %s %s", status, out, errOut)
		}
		vout, verr, vstatus := runPonte(t, "", "verify", path)
		if vstatus != exitOK || !strings.Contains(vout+verr, "8 games: 8 legal") {
			t.Fatalf("verify: exit %d: %s %s", vstatus, vout, verr)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		archives = append(archives, string(b))
	}
	if archives[0] != archives[1] {
		t.Error("--workers 1 and 2 wrote different archives")
	}
	for _, player := range []string{
		engineLine(t, "--bot nobody"),
		"gtp:/no/such/engine",
		"gtp:'unterminated",
		"gtp:",
	} {
		_, errOut, status := runPonte(t, "", "match", player, "greedy", "--games", "2", "--size", "6")
		if status != exitUsage || !strings.Contains(errOut, "ponte match:") {
			t.Errorf("%s: exit %d: %s", player, status, errOut)
		}
	}
}
