package bug

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A panic in a goroutine that defers Recover ends the program with ExitStatus and a report
// that says it is a bug and where it happened: checked in a child process, since the
// status is the process's.
func TestRecoverInGoroutine(t *testing.T) {
	if os.Getenv("BUG_TEST_CHILD") == "1" {
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer Recover()
			var m map[string]int
			m["boom"]++ // a nil map: the kind of bug that gets past review
		}()
		<-done
		os.Exit(0) // not reached: Recover exits
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRecoverInGoroutine$")
	cmd.Env = append(os.Environ(), "BUG_TEST_CHILD=1")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	err := cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != ExitStatus {
		t.Fatalf("exit %v, want status %d; standard error:\n%s", err, ExitStatus, errOut.String())
	}
	for _, want := range []string{"ponte: internal error: assignment to entry in nil map", "This is a bug in ponte", "bug_test.go"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("standard error lacks %q:\n%s", want, errOut.String())
		}
	}
}

func TestRecoverNoPanic(t *testing.T) {
	exited := false
	exit = func(int) { exited = true }
	defer func() { exit = os.Exit }()
	func() {
		defer Recover()
	}()
	if exited {
		t.Error("Recover exited without a panic")
	}
}
