package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"sync"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
)

var (
	fontOnce sync.Once
	fontData []byte
	fontErr  error
)

// fontCSS returns the style sheet that embeds the charts' font (Liberation Sans, as the
// SVG text names it) once for a page, so that a browser without that font draws the
// charts' text with the metrics gonum/plot measured.
func fontCSS() ([]byte, error) {
	fontOnce.Do(func() {
		face := font.DefaultCache.Lookup(chartFont, 10)
		if face.Face == nil {
			fontErr = fmt.Errorf("font %v not found", chartFont)
			return
		}
		var raw bytes.Buffer
		if _, err := face.Face.WriteSourceTo(nil, &raw); err != nil {
			fontErr = fmt.Errorf("font %v: %w", chartFont, err)
			return
		}
		var buf sfnt.Buffer
		family, err := face.Face.Name(&buf, sfnt.NameIDFamily)
		if err != nil {
			fontErr = fmt.Errorf("font %v: %w", chartFont, err)
			return
		}
		var css bytes.Buffer
		fmt.Fprintf(&css, "/* The font of the charts, embedded so that they look the same everywhere. */\n")
		fmt.Fprintf(&css, "@font-face {\n  font-family: %q;\n  font-weight: normal;\n  font-style: normal;\n", family)
		fmt.Fprintf(&css, "  src: url(data:font/ttf;base64,%s) format(\"truetype\");\n}\n", base64.StdEncoding.EncodeToString(raw.Bytes()))
		fontData = css.Bytes()
	})
	return fontData, fontErr
}
