package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/ponte/ponte/annotate"
	"github.com/ponte/ponte/annotate/value"
	"github.com/ponte/ponte/internal/outfile"
)

// trainSettings are what a trained model depends on: the same settings and games give the
// same weights on the same kernels (AVX2 or not).
type trainSettings struct {
	steps, batch, every, heldOut, maxGames, workers int
	lr, l2                                          float64
	filters, layers, hidden                         int
	seed                                            uint64
}

func train(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("vnet train", flag.ContinueOnError)
	var c trainSettings
	fs.IntVar(&c.steps, "steps", 20000, "training steps (minibatches)")
	fs.IntVar(&c.batch, "batch", 256, "positions a step")
	fs.Float64Var(&c.lr, "lr", 1e-3, "Adam's learning rate; ×0.3 from 60 % of the steps, ×0.1 from 85 %")
	fs.Float64Var(&c.l2, "l2", 1e-5, "the L2 penalty of the weights")
	fs.IntVar(&c.filters, "filters", 32, "the convolutions' filters")
	fs.IntVar(&c.layers, "layers", 5, "the convolution layers")
	fs.IntVar(&c.hidden, "hidden", 32, "the hidden layer's units")
	fs.IntVar(&c.every, "every", 2000, "steps between measures (held-out games, truth set) and saves of the model")
	fs.IntVar(&c.heldOut, "held-out", 4000, "positions drawn from the held-out games (index mod 20 = 0) to measure")
	fs.IntVar(&c.maxGames, "max-games", 0, "train on only this many games (0: all), for a learning curve")
	fs.IntVar(&c.workers, "workers", 2, "goroutines of a step (another count sums the gradient in another order)")
	fs.Uint64Var(&c.seed, "seed", 1, "the seed of the first weights and of the positions drawn")
	games := fs.String("games", "", "archives of games, separated by commas (or given as arguments)")
	truthPath := fs.String("truth", "annotate/testdata/truthset.parquet", "the truth set measured at each measure (\"\": none)")
	to := fs.String("out", "", "the model file, written at each measure and at the end")
	files, err := parseMixed(fs, args)
	if err != nil {
		return err
	}
	if *games != "" {
		files = append(strings.Split(*games, ","), files...)
	}
	switch {
	case *to == "" || len(files) == 0:
		return errors.New("train: --out FILE and the games' archives")
	case c.steps < 1 || c.batch < 1 || c.every < 1 || c.heldOut < 1 || c.workers < 1 || c.maxGames < 0:
		return errors.New("train: --steps, --batch, --every, --held-out and --workers must be at least 1")
	case !(c.lr > 0) || c.l2 < 0:
		return errors.New("train: --lr must be above 0, --l2 at least 0")
	}
	all, err := readGames(ctx, files)
	if err != nil {
		return err
	}
	var trainOn, held []*trainGame
	for _, g := range all {
		if g.heldOut() {
			held = append(held, g)
		} else if c.maxGames == 0 || len(trainOn) < c.maxGames {
			trainOn = append(trainOn, g)
		}
	}
	if len(trainOn) == 0 || len(held) == 0 {
		return fmt.Errorf("train: %d games to train on and %d held out (index mod 20 = 0): both must be some", len(trainOn), len(held))
	}
	fmt.Fprintf(out, "games: %d training, %d held out\n", len(trainOn), len(held))
	var rows []annotate.TruthRow
	if *truthPath != "" {
		if rows, err = annotate.ReadTruthSet(*truthPath); err != nil {
			return err
		}
	}

	net := value.NewNet(value.Config{In: value.Planes, Filters: c.filters, Layers: c.layers, Globals: value.Globals, Hidden: c.hidden},
		rand.New(rand.NewPCG(c.seed, 1)))
	model, err := value.NewModel(net)
	if err != nil {
		return err
	}
	tr := value.NewTrainer(net, float32(c.lr), float32(c.l2))
	tr.Workers = c.workers

	// the held-out positions, the same for every seed
	vrng := rand.New(rand.NewPCG(9, 9))
	vs := make([]*value.Sample, 0, c.heldOut)
	var tries int
	for len(vs) < c.heldOut {
		if tries++; tries > 100*c.heldOut {
			return errors.New("train: the held-out games are too short to draw positions from")
		}
		s := new(value.Sample)
		if err := draw(held[vrng.IntN(len(held))], vrng, s); errors.Is(err, errNoPosition) {
			continue
		} else if err != nil {
			return err
		}
		vs = append(vs, s)
	}
	var mean, base float64
	for _, s := range vs {
		mean += float64(s.Target)
	}
	mean /= float64(len(vs))
	for _, s := range vs {
		base += (float64(s.Target) - mean) * (float64(s.Target) - mean)
	}
	fmt.Fprintf(out, "held out: %d positions, Brier score of their mean %.4f\n", len(vs), base/float64(len(vs)))

	var sc value.Scratch
	start := time.Now()
	measure := func(step int, trainLoss float64) error {
		var brier, ll float64
		for _, s := range vs {
			p := float64(net.Predict(s, &sc))
			t := float64(s.Target)
			brier += (p - t) * (p - t)
			p = math.Min(math.Max(p, 1e-6), 1-1e-6)
			ll -= t*math.Log(p) + (1-t)*math.Log(1-p)
		}
		fmt.Fprintf(out, "step %d of %d (%s): training loss %.4f, held-out Brier score %.4f, log loss %.4f",
			step, c.steps, time.Since(start).Round(time.Second), trainLoss, brier/float64(len(vs)), ll/float64(len(vs)))
		if rows != nil {
			r, err := readTruth(model, rows, nil)
			if err != nil {
				return err
			}
			f := r.figures()
			fmt.Fprintf(out, "; truth set: values Spearman %.3f, losses Spearman %.3f (MAE %.3f)", f.values.spearman, f.marks.Spearman.Value, f.marks.MAE.Value)
		}
		fmt.Fprintln(out)
		return outfile.WriteFile(ctx, *to, net.Save)
	}

	rng := rand.New(rand.NewPCG(c.seed, 2))
	pool := make([]value.Sample, c.batch)
	batch := make([]*value.Sample, c.batch)
	var turned []float32
	var lossSum float64
	var lossN int
	for step := 1; step <= c.steps; step++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("train: before step %d (the model of the last measure is kept): %w", step, err)
		}
		for i := range batch {
			for {
				err := draw(trainOn[rng.IntN(len(trainOn))], rng, &pool[i])
				if err == nil {
					break
				}
				if !errors.Is(err, errNoPosition) {
					return err
				}
			}
			s := &pool[i]
			if t := rng.IntN(value.Symmetries); t != 0 {
				turned = slices.Grow(turned[:0], len(s.Planes))[:len(s.Planes)]
				value.Transform(turned, s.Planes, s.Size, t)
				s.Planes, turned = turned, s.Planes
			}
			batch[i] = s
		}
		switch frac := float64(step-1) / float64(c.steps); {
		case frac >= 0.85:
			tr.LR = float32(c.lr * 0.1)
		case frac >= 0.6:
			tr.LR = float32(c.lr * 0.3)
		}
		lossSum += tr.Step(batch)
		lossN++
		if step%c.every == 0 || step == c.steps {
			if err := measure(step, lossSum/float64(lossN)); err != nil {
				return err
			}
			lossSum, lossN = 0, 0
		}
	}
	return nil
}
