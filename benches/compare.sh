#!/usr/bin/env bash
# Whole-CLI benchmark: pgn960 next to the pgn-reader + shakmaty peer (benches/src/bin/peer.rs),
# on the same machine, the same file, in the same run, alternating A/B and reporting medians,
# MB/s, games/s, ratios and peak RSS (/usr/bin/time -v).
#
# Usage: benches/compare.sh [CORPUS.pgn] [SIZE_MB=1000] [RUNS=3]
# Without CORPUS, a lichess-style corpus of SIZE_MB is made from ../shared/data/corpus (with
# ../shared/tools/make_bulk.sh when present), else from fixtures/sample.pgn. Files go to
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
    if [ -x ../shared/tools/make_bulk.sh ] || [ -f ../shared/tools/make_bulk.sh ]; then
      bash ../shared/tools/make_bulk.sh "$seed" "$corpus" "$size_mb"
    else
      : > "$corpus"
      while [ "$(stat -c %s "$corpus")" -lt $((size_mb * 1000000)) ]; do cat "$seed" >> "$corpus"; echo >> "$corpus"; done
    fi
  fi
fi
fens="$work/fens-1m.epd"
if [ ! -s "$fens" ]; then
  src=../shared/data/positions/3moves_FRC.epd
  if [ -f "$src" ]; then
    : > "$fens"
    while [ "$(wc -l < "$fens")" -lt 1000000 ]; do cat "$src" >> "$fens"; done
    head -n 1000000 "$fens" > "$fens.tmp" && mv "$fens.tmp" "$fens"
  else
    cargo run -q --release -p pgn960-cli --bin pgn960 -- sp --all | tail -n +2 | cut -f3 > "$work/sp.fen"
    for _ in $(seq 1042); do cat "$work/sp.fen"; done | head -n 1000000 > "$fens"
  fi
fi

cargo build -q --release -p pgn960-cli -p pgn960-benches --bin pgn960 --bin peer
pgn960=target/release/pgn960
peer=target/release/peer
bytes=$(stat -c %s "$corpus")
games=$($peer parse "$corpus" | awk '{print $2}')
echo "corpus: $corpus ($bytes bytes, $games games); FEN list: $fens (1,000,000 lines); $runs runs each, A/B alternating"

# run LABEL CMD... : one timed run; appends "seconds rss_kb" to $work/LABEL.times
run() {
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time.out" "$@" > /dev/null 2>> "$work/stderr.log" || true
  cat "$work/time.out" >> "$work/$label.times"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

pairs=(
  "check-j1|$pgn960 -q -j1 check --max-errors 0 $corpus|peer-check|$peer check $corpus"
  "parse-ours|$peer ours-parse $corpus|parse-peer|$peer parse $corpus"
  "check-j2|$pgn960 -q -j2 check --max-errors 0 $corpus|check-j1b|$pgn960 -q -j1 check --max-errors 0 $corpus"
  "stats-headers-j1|$pgn960 -q -j1 stats --headers-only -o /dev/null $corpus|stats-replay-j1|$pgn960 -q -j1 stats -o /dev/null $corpus"
  "xfen-j1|$pgn960 -q -j1 xfen --to shredder -o /dev/null $fens|xfen-peer|$peer xfen $fens"
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

# Peak heap against input size: the corpus streamed through standard input (no memory map,
# so the peak RSS is heap and buffers only), once and four times over (4x the bytes).
heap() {
  local copies=$1
  for _ in $(seq "$copies"); do cat "$corpus"; done |
    /usr/bin/time -f "%e %M" -o "$work/time.out" $pgn960 -q -j2 check --max-errors 0 - > /dev/null 2>> "$work/stderr.log" || true
  cat "$work/time.out" >> "$work/heap-${copies}x.times"
}
heap 1
heap 4

report() {
  local label=$1 unit=$2 secs rss
  secs=$(awk '{print $1}' "$work/$label.times" | median)
  rss=$(awk '{print $2}' "$work/$label.times" | sort -n | tail -1)
  awk -v l="$label" -v s="$secs" -v r="$rss" -v b="$bytes" -v g="$games" -v u="$unit" 'BEGIN {
    if (s <= 0) s = 0.001
    if (u == "fens") printf "%-18s %8.2f s %10.0f FENs/s                     peak RSS %6.1f MB\n", l, s, 1000000 / s, r / 1024
    else printf "%-18s %8.2f s %8.0f MB/s %10.0f games/s   peak RSS %6.1f MB\n", l, s, b / 1e6 / s, g / s, r / 1024
  }'
}
ratio() { # ratio A B : time(B) / time(A) = throughput(A) / throughput(B)
  local ta tb
  ta=$(awk '{print $1}' "$work/$1.times" | median)
  tb=$(awk '{print $1}' "$work/$2.times" | median)
  awk -v a="$1" -v b="$2" -v ta="$ta" -v tb="$tb" 'BEGIN { if (ta <= 0) ta = 0.001; printf "  %-40s %5.2fx\n", a " vs " b, tb / ta }'
}
echo
for l in check-j1 peer-check parse-ours parse-peer check-j2 check-j1b stats-headers-j1 stats-replay-j1; do report "$l" games; done
for l in xfen-j1 xfen-peer; do report "$l" fens; done
h1=$(awk '{print $2}' "$work/heap-1x.times" | tail -1)
h4=$(awk '{print $2}' "$work/heap-4x.times" | tail -1)
awk -v a="$h1" -v b="$h4" 'BEGIN { printf "\nheap (check -j2 from stdin, no map): 1x corpus %.1f MB, 4x corpus %.1f MB, 4x/1x %.2f\n", a / 1024, b / 1024, b / a }'
echo "(peak RSS of mapped runs above includes the file pages the map has touched)"
echo
echo "ratios (throughput, above 1 = pgn960 faster):"
ratio check-j1 peer-check
ratio parse-ours parse-peer
ratio check-j2 check-j1b
ratio xfen-j1 xfen-peer
