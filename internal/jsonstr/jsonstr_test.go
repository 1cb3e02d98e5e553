package jsonstr

import (
	"encoding/json"
	"fmt"
	"testing"
)

// Every string reads back as itself through encoding/json, and plain text is written as
// it is.
func TestAppend(t *testing.T) {
	for _, s := range []string{"", "d4", "Autumn \"league\"", `C:\games`, "a\nb\r\tc", "\x00\x01\x1f\x7f", "Ünal 🎲", "<&>"} {
		text := Append(nil, s)
		var back string
		if err := json.Unmarshal(text, &back); err != nil || back != s {
			t.Errorf("Append(%q) = %s, read back as %q (%v)", s, text, back, err)
		}
	}
	if got := string(Append([]byte("x"), "a\tb\"")); got != `x"a\tb\""` {
		t.Errorf("got %s", got)
	}
}

func ExampleAppend() {
	fmt.Println(string(Append([]byte("name: "), "Event \"Autumn\"\n")))
	// Output: name: "Event \"Autumn\"\n"
}
