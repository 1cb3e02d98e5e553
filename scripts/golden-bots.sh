#!/bin/sh
# golden-bots.sh BINARY [DIR]: writes the bot golden archives (cmd/ponte/testdata/golden)
# with BINARY, the build of the base commit named in that folder's README. Never run it with
# the current code: the goldens pin what the bots' names played before a change.
# Each line of sets.txt is: name|selfplay arguments.
set -eu
bin=${1:?usage: golden-bots.sh BINARY [DIR]}
dir=${2:-$(dirname "$0")/../cmd/ponte/testdata/golden}
while IFS='|' read -r name args; do
	case $name in ''|'#'*) continue ;; esac
	# shellcheck disable=SC2086
	"$bin" selfplay --quiet --workers 2 $args --out "$dir/$name.ponte.gz"
	echo "$name"
done <"$dir/sets.txt"
