package bot

import (
	"strconv"

	"github.com/ponte/ponte/game"
	"github.com/ponte/ponte/ingest"
)

// Record returns the game as a .ponte record: the index-th game of a self-play archive
// made from seed. Its tags, in order, are Event "selfplay", Site "ponte selfplay", Round
// (the index), GameId "selfplay-SEED-INDEX", Light and Dark (the bots by the colour they
// played at the end, after any swap), Size, Supply, Result, Termination "normal" and
// Score, then two tags of its own: Opener (the bot that played turn 1) and Seed. Its
// typed fields agree with its tags, as [ingest.Record.SetTag] would set them.
func (g *Game) Record(index int, seed uint64) *ingest.Record {
	round := strconv.Itoa(index)
	seedText := strconv.FormatUint(seed, 10)
	claimed := g.Result
	result := claimed.String()
	score := strconv.Itoa(g.Score[0]) + "-" + strconv.Itoa(g.Score[1])
	rec := &ingest.Record{
		Format: ingest.FormatPonte,
		Index:  index,
		Tags: []ingest.Tag{
			{Name: "Event", Value: "selfplay"},
			{Name: "Site", Value: game.SelfPlaySite},
			{Name: "Round", Value: round},
			{Name: "GameId", Value: "selfplay-" + seedText + "-" + round},
			{Name: "Light", Value: g.Light()},
			{Name: "Dark", Value: g.Dark()},
			{Name: "Size", Value: strconv.Itoa(g.Size)},
			{Name: "Supply", Value: g.Supply.String()},
			{Name: "Result", Value: result},
			{Name: "Termination", Value: "normal"},
			{Name: "Score", Value: score},
			{Name: "Opener", Value: g.Opener},
			{Name: "Seed", Value: seedText},
		},
		Moves:  make([]ingest.Token, len(g.Moves)),
		Result: &claimed,

		// The typed values of the tags above (ingest derives them the same way).
		Size:        g.Size,
		Supply:      g.Supply,
		Termination: game.Normal,
		Score:       &[2]int{g.Score[0], g.Score[1]},
	}
	for i, m := range g.Moves {
		rec.Moves[i] = ingest.Token{Text: m.String()}
	}
	return rec
}
