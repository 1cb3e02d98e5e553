package verdict

import (
	"strconv"

	"github.com/ponte/ponte/internal/termtext"
)

// AppendText appends the lines of ponte verify for the verdict: one per error of the
// game, its Error then each of its TagErrors (after the Error unless that is the first of
// them), none for a legal game. A line is FILE:LINE:COL: game N: RULE: message, with the
// turn at the head of the message when there is one; the file name, the rule and the
// message are made safe to print (termtext.Safe): one line per error, whatever they hold.
func (v *Verdict) AppendText(b []byte) []byte {
	if v.Error != nil {
		b = v.appendLine(b, v.Error)
	}
	for i := range v.TagErrors {
		if i == 0 && v.Error != nil && *v.Error == v.TagErrors[0] {
			continue
		}
		b = v.appendLine(b, &v.TagErrors[i])
	}
	return b
}

func (v *Verdict) appendLine(b []byte, e *Error) []byte {
	b = append(b, termtext.Safe(v.Source)...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(e.Line), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(e.Col), 10)
	b = append(b, ": game "...)
	b = strconv.AppendInt(b, int64(v.Index), 10)
	b = append(b, ": "...)
	b = append(b, termtext.Safe(e.Rule)...)
	b = append(b, ": "...)
	if e.Turn != nil {
		b = append(b, "turn "...)
		b = strconv.AppendInt(b, int64(*e.Turn), 10)
		b = append(b, ": "...)
	}
	b = append(b, termtext.Safe(e.Message)...)
	return append(b, '\n')
}
