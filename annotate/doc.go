// Package annotate reads a game with the engine: for every turn, the calibrated chance
// that Light wins before and after it, the engine's best turn in the position, the loss
// of the turn played (the drop in the mover's chance) and its mark (inaccuracy, mistake,
// blunder). The engine is the sage bot searching each position with a fixed budget of
// playouts, seeded from the game's stable id and the turn, so that an analysis is the
// same on every machine, with any number of workers and in any shard. See
// docs/annotate.md.
package annotate
