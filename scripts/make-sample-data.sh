#!/usr/bin/env bash
# Rebuilds the self-played archives in sample_data/ (about 4 minutes on 2 cores).
# The games are reproducible: each archive names its seed, and game i of a seed is
# the same game whatever --workers is (the mcts bot searches on one worker per game).
#
# The bots are players of known, different strength, weakest first:
#   random < greedy < mcts-30 < mcts-100 < mcts-400 < sage-200
# (mcts-N searches N playouts per turn; sage-200 is the strong bot of docs/bot-design.md
# at 200 playouts per turn). They meet in a chain of matches, each pairing
# played with either bot opening, so that a rating fit has something to recover:
# `ponte stats --ratings --population bots` must give them in this order
# (TestSampleBotsRatedInKnownOrder).
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o /tmp/ponte-sample ./cmd/ponte
p=/tmp/ponte-sample
out=sample_data
rm -f $out/selfplay-*.ponte.zst $out/selfplay-*.jsonl.zst

# 10×10, unlimited supply: 2,170 games.
$p selfplay -q --size 10 --games 600 --light greedy --dark greedy --seed 101 -o $out/selfplay-10x10-greedy.ponte.zst
$p selfplay -q --size 10 --games 200 --light mcts-30 --dark greedy --seed 102 -o $out/selfplay-10x10-mcts30-greedy.ponte.zst
$p selfplay -q --size 10 --games 200 --light greedy --dark mcts-30 --seed 103 -o $out/selfplay-10x10-greedy-mcts30.ponte.zst
$p selfplay -q --size 10 --games 150 --light mcts-100 --dark mcts-30 --seed 106 -o $out/selfplay-10x10-mcts100-mcts30.ponte.zst
$p selfplay -q --size 10 --games 150 --light mcts-30 --dark mcts-100 --seed 107 -o $out/selfplay-10x10-mcts30-mcts100.ponte.zst
$p selfplay -q --size 10 --games 150 --light mcts-100 --dark greedy --seed 108 -o $out/selfplay-10x10-mcts100-greedy.ponte.zst
$p selfplay -q --size 10 --games 150 --light greedy --dark mcts-100 --seed 109 -o $out/selfplay-10x10-greedy-mcts100.ponte.zst
$p selfplay -q --size 10 --games 60 --light mcts-400 --dark mcts-100 --seed 110 -o $out/selfplay-10x10-mcts400-mcts100.ponte.zst
$p selfplay -q --size 10 --games 60 --light mcts-100 --dark mcts-400 --seed 111 -o $out/selfplay-10x10-mcts100-mcts400.ponte.zst
$p selfplay -q --size 10 --games 40 --light mcts-400 --dark greedy --seed 112 -o $out/selfplay-10x10-mcts400-greedy.ponte.zst
$p selfplay -q --size 10 --games 40 --light greedy --dark mcts-400 --seed 113 -o $out/selfplay-10x10-greedy-mcts400.ponte.zst
$p selfplay -q --size 10 --games 100 --light random --dark greedy --seed 104 -o $out/selfplay-10x10-random-greedy.jsonl.zst
$p selfplay -q --size 10 --games 100 --light greedy --dark random --seed 105 -o $out/selfplay-10x10-greedy-random.jsonl.zst
$p selfplay -q --size 10 --games 60 --light sage-200 --dark mcts-400 --seed 114 -o $out/selfplay-10x10-sage200-mcts400.ponte.zst
$p selfplay -q --size 10 --games 60 --light mcts-400 --dark sage-200 --seed 115 -o $out/selfplay-10x10-mcts400-sage200.ponte.zst
$p selfplay -q --size 10 --games 50 --light sage-200 --dark sage-200 --seed 116 -o $out/selfplay-10x10-sage200.ponte.zst

# 12×12 (Brettspielnetz): 1,080 games, some with the printed game's 40/15 supply.
$p selfplay -q --size 12 --games 400 --light greedy --dark greedy --seed 121 -o $out/selfplay-12x12-greedy.ponte.zst
$p selfplay -q --size 12 --games 200 --light greedy --dark greedy --supply 40/15 --seed 122 -o $out/selfplay-12x12-greedy-40x15.ponte.zst
$p selfplay -q --size 12 --games 150 --light mcts-100 --dark greedy --seed 123 -o $out/selfplay-12x12-mcts100-greedy.ponte.zst
$p selfplay -q --size 12 --games 150 --light greedy --dark mcts-100 --seed 124 -o $out/selfplay-12x12-greedy-mcts100.ponte.zst
$p selfplay -q --size 12 --games 100 --light random --dark random --seed 125 -o $out/selfplay-12x12-random.jsonl.zst
$p selfplay -q --size 12 --games 40 --light sage-200 --dark mcts-100 --seed 126 -o $out/selfplay-12x12-sage200-mcts100.ponte.zst
$p selfplay -q --size 12 --games 40 --light mcts-100 --dark sage-200 --seed 127 -o $out/selfplay-12x12-mcts100-sage200.ponte.zst
