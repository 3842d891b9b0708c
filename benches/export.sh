#!/usr/bin/env bash
# Export benchmark: `pgn960 export` to Parquet against `pgn960 check` on the same corpus, one
# thread and two, and the peak heap of an export from standard input (no memory map) on the
# corpus once and four times over. A/B alternating runs, medians (see docs/performance.md).
#
# Usage: benches/export.sh [CORPUS.pgn] [SIZE_MB=1000] [RUNS=3]
# Without CORPUS, a lichess-style corpus of SIZE_MB is made as benches/compare.sh does
# (../shared/tools/make_bulk.sh of ../shared/data/corpus/lichess-style-4000.pgn). Files go to
# $PGN960_BENCH_DIR (default: a new temporary directory) and are reused when present.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-}
size_mb=${2:-1000}
runs=${3:-3}
work=${PGN960_BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work"
if [ -z "$corpus" ]; then
  corpus="$work/bulk-${size_mb}mb.pgn"
  if [ ! -s "$corpus" ]; then
    seed=../shared/data/corpus/lichess-style-4000.pgn
    [ -f "$seed" ] || seed=fixtures/sample.pgn
    bash ../shared/tools/make_bulk.sh "$seed" "$corpus" "$size_mb"
  fi
fi

cargo build -q --release -p pgn960-cli --bin pgn960
pgn960=target/release/pgn960
bytes=$(stat -c %s "$corpus")
out="$work/export.parquet"
echo "corpus: $corpus ($bytes bytes); $runs runs each, A/B alternating"

run() { # run LABEL CMD... : one timed run; appends "seconds rss_kb" to $work/LABEL.times
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time.out" "$@" > /dev/null 2>> "$work/stderr.log" || true
  cat "$work/time.out" >> "$work/$label.times"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

pairs=(
  "export-j1|$pgn960 -q -j1 export -o $out $corpus|check-j1|$pgn960 -q -j1 check --max-errors 0 $corpus"
  "export-j2|$pgn960 -q -j2 export -o $out $corpus|export-j1b|$pgn960 -q -j1 export -o $out $corpus"
)
rm -f "$work"/*.times
for pair in "${pairs[@]}"; do
  IFS='|' read -r a cmd_a b cmd_b <<< "$pair"
  for _ in $(seq "$runs"); do
    # shellcheck disable=SC2086
    run "$a" $cmd_a
    # shellcheck disable=SC2086
    run "$b" $cmd_b
  done
done
table_bytes=$(stat -c %s "$out")

# Peak heap against input size: the corpus streamed through standard input (no memory map),
# once and four times over; the table goes to /dev/null (written in place, no file pages).
heap() {
  local copies=$1
  for _ in $(seq "$copies"); do cat "$corpus"; done |
    /usr/bin/time -f "%e %M" -o "$work/time.out" $pgn960 -q -j2 export --format parquet -o /dev/null - > /dev/null 2>> "$work/stderr.log" || true
  cat "$work/time.out" >> "$work/heap-${copies}x.times"
}
heap 1
heap 4

report() {
  local label=$1 secs rss
  secs=$(awk '{print $1}' "$work/$label.times" | median)
  rss=$(awk '{print $2}' "$work/$label.times" | sort -n | tail -1)
  awk -v l="$label" -v s="$secs" -v r="$rss" -v b="$bytes" 'BEGIN {
    if (s <= 0) s = 0.001
    printf "%-12s %8.2f s %8.0f MB/s   peak RSS %7.1f MB\n", l, s, b / 1e6 / s, r / 1024
  }'
}
ratio() { # ratio A B : throughput(A) / throughput(B)
  local ta tb
  ta=$(awk '{print $1}' "$work/$1.times" | median)
  tb=$(awk '{print $1}' "$work/$2.times" | median)
  awk -v a="$1" -v b="$2" -v ta="$ta" -v tb="$tb" 'BEGIN { if (ta <= 0) ta = 0.001; printf "  %-28s %5.2fx\n", a " vs " b, tb / ta }'
}
echo
for l in export-j1 check-j1 export-j2 export-j1b; do report "$l"; done
echo "Parquet table: $table_bytes bytes"
h1=$(awk '{print $2}' "$work/heap-1x.times" | tail -1)
h4=$(awk '{print $2}' "$work/heap-4x.times" | tail -1)
awk -v a="$h1" -v b="$h4" 'BEGIN { printf "\nheap (export -j2 from stdin, no map): 1x corpus %.1f MB, 4x corpus %.1f MB, 4x/1x %.2f\n", a / 1024, b / 1024, b / a }'
echo
echo "ratios (throughput):"
ratio export-j1 check-j1
ratio export-j2 export-j1b
