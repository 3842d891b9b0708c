#!/usr/bin/env bash
# `pgn960 stats --by time-control,rating-band` against plain `pgn960 stats` (replay) on one
# corpus: RUNS runs each, alternating, medians of wall time and of CPU time (user + sys).
# Usage: benches/stats-by.sh [CORPUS.pgn] [RUNS=3]
# Without a corpus: a ~200 MB one made with ../shared/tools/make_bulk.sh under
# $PGN960_BENCH_DIR (default /tmp/bench). Builds the release binary first.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${PGN960_BENCH_DIR:-/tmp/bench}
in=${1:-}
runs=${2:-3}
if [ -z "$in" ]; then
  mkdir -p "$dir"
  in="$dir/bulk-200mb.pgn"
  [ -e "$in" ] || ../shared/tools/make_bulk.sh ../shared/data/corpus/lichess-style-4000.pgn "$in" 200
fi
cargo build --release -p pgn960-cli --no-default-features --quiet
bin=target/release/pgn960
out=$(mktemp -d)
trap 'rm -r "$out"' EXIT
one() {
  /usr/bin/time -f "%e %U %S" -o "$out/t" "$bin" -q stats "$in" "$@"
  read -r e u s < "$out/t"
  echo "$e $(echo "$u + $s" | bc)"
}
declare -a pw pc bw bc
for ((i = 0; i < runs; i++)); do
  read -r e c < <(one -o "$out/plain.csv"); pw+=("$e"); pc+=("$c")
  read -r e c < <(one --by time-control,rating-band -o "$out/by.csv"); bw+=("$e"); bc+=("$c")
done
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "input: $in ($(stat -c %s "$in") bytes); $runs runs each, alternating; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "stats                                 wall ${pw[*]} (median $(med "${pw[@]}") s); cpu ${pc[*]} (median $(med "${pc[@]}") s)"
echo "stats --by time-control,rating-band   wall ${bw[*]} (median $(med "${bw[@]}") s); cpu ${bc[*]} (median $(med "${bc[@]}") s)"
echo "--by / plain: wall $(echo "scale=3; $(med "${bw[@]}") / $(med "${pw[@]}")" | bc), cpu $(echo "scale=3; $(med "${bc[@]}") / $(med "${pc[@]}")" | bc)"
