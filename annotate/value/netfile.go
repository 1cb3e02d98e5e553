package value

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

const magic = 0x54454e56 // "VNET" little-endian

// maxParams bounds what LoadNet allocates for a file's sizes before it reads them (64 MB;
// the committed model has 44,001).
const maxParams = 1 << 24

// Save writes the net: magic "VNET", version 1, the Config (5 × int32), the number of
// parameters (int64) and the parameters (float32), all little-endian.
func (n *Net) Save(w io.Writer) error {
	c := n.Cfg
	hdr := []int32{magic, 1, int32(c.In), int32(c.Filters), int32(c.Layers), int32(c.Globals), int32(c.Hidden)}
	if err := binary.Write(w, binary.LittleEndian, hdr); err != nil {
		return err
	}
	if err := binary.Write(w, binary.LittleEndian, int64(len(n.Params))); err != nil {
		return err
	}
	return binary.Write(w, binary.LittleEndian, n.Params)
}

// LoadNet reads a net written by Save; an error that is not the reader's wraps ErrModel.
func LoadNet(r io.Reader) (*Net, error) {
	short := func(err error) error {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%w: the file ends early", ErrModel)
		}
		return err
	}
	hdr := make([]int32, 7)
	if err := binary.Read(r, binary.LittleEndian, hdr); err != nil {
		return nil, short(err)
	}
	if hdr[0] != magic || hdr[1] != 1 {
		return nil, fmt.Errorf("%w: no VNET version 1 header", ErrModel)
	}
	c := Config{In: int(hdr[2]), Filters: int(hdr[3]), Layers: int(hdr[4]), Globals: int(hdr[5]), Hidden: int(hdr[6])}
	if err := c.validate(); err != nil {
		return nil, err
	}
	var np int64
	if err := binary.Read(r, binary.LittleEndian, &np); err != nil {
		return nil, short(err)
	}
	if c.numParams() > maxParams {
		return nil, fmt.Errorf("%w: sizes %+v need %d parameters, more than the %d a model may have", ErrModel, c, c.numParams(), maxParams)
	}
	if np != int64(c.numParams()) {
		return nil, fmt.Errorf("%w: %d parameters for sizes that have %d", ErrModel, np, c.numParams())
	}
	n := newNet(c)
	if err := binary.Read(r, binary.LittleEndian, n.Params); err != nil {
		return nil, short(err)
	}
	for i, p := range n.Params {
		if math.IsNaN(float64(p)) || math.IsInf(float64(p), 0) {
			return nil, fmt.Errorf("%w: parameter %d is %v", ErrModel, i, p)
		}
	}
	return n, nil
}
