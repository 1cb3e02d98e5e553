#!/usr/bin/env bash
# Rebuilds the self-played archives in sample_data/ (about 5 minutes on 2 cores).
# The games are reproducible: each archive names its seed, and game i of a seed is
# the same game whatever --workers is (the mcts bot searches on one worker per game).
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o /tmp/ponte-sample ./cmd/ponte
p=/tmp/ponte-sample
out=sample_data

# 10×10, unlimited supply: 2,000 games of mixed strength.
$p selfplay -q --size 10 --games 1200 --light greedy --dark greedy --seed 101 -o $out/selfplay-10x10-greedy.ponte.zst
$p selfplay -q --size 10 --games 300 --light mcts --dark greedy --playouts 100 --seed 102 -o $out/selfplay-10x10-mcts-greedy.ponte.zst
$p selfplay -q --size 10 --games 300 --light greedy --dark mcts --playouts 100 --seed 103 -o $out/selfplay-10x10-greedy-mcts.ponte.zst
$p selfplay -q --size 10 --games 100 --light random --dark greedy --seed 104 -o $out/selfplay-10x10-random-greedy.jsonl.zst
$p selfplay -q --size 10 --games 100 --light greedy --dark random --seed 105 -o $out/selfplay-10x10-greedy-random.jsonl.zst

# 12×12 (Brettspielnetz): 1,000 games, some with the printed game's 40/15 supply.
$p selfplay -q --size 12 --games 400 --light greedy --dark greedy --seed 121 -o $out/selfplay-12x12-greedy.ponte.zst
$p selfplay -q --size 12 --games 200 --light greedy --dark greedy --supply 40/15 --seed 122 -o $out/selfplay-12x12-greedy-40x15.ponte.zst
$p selfplay -q --size 12 --games 150 --light mcts --dark greedy --playouts 100 --seed 123 -o $out/selfplay-12x12-mcts-greedy.ponte.zst
$p selfplay -q --size 12 --games 150 --light greedy --dark mcts --playouts 100 --seed 124 -o $out/selfplay-12x12-greedy-mcts.ponte.zst
$p selfplay -q --size 12 --games 100 --light random --dark random --seed 125 -o $out/selfplay-12x12-random.jsonl.zst
