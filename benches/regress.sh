#!/usr/bin/env bash
# The regression gate: two pgn960 builds side by side, in one run, alternating (A B A B …),
# medians of CPU time (user + system) and wall time, and the ratio NEW/OLD for each command.
# Every performance claim ("no speed lost", "x% faster") is made with this script against
# the commit before the change, on a quiet machine (the load is printed at start and end).
#
# Usage:
#   benches/regress.sh OLD_BIN NEW_BIN [FILE] [RUNS=9]
#   benches/regress.sh --help             # this text
#   benches/regress.sh --build REV        # release build of commit REV (a throwaway worktree
#                                         # under $PGN960_BENCH_DIR); prints the binary's path
# OLD_BIN/NEW_BIN are `pgn960` binaries (release profile: fat LTO). Without FILE, a 300 MB
# lichess-style file is made from ../shared/data/corpus with ../shared/tools/make_bulk.sh
# (or fixtures/sample.pgn repeated) in $PGN960_BENCH_DIR (default /tmp/pgn960-bench).
# Parse-only (the reader alone, no rules) is measured when OLD_PEER and NEW_PEER name the
# `peer` bench binaries of the two commits (`peer ours-parse FILE`; built by --build too).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${PGN960_BENCH_DIR:-/tmp/pgn960-bench}
mkdir -p "$work"

if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  exit 0
fi

if [ "${1:-}" = "--build" ]; then
  rev=$(git rev-parse --short "${2:?--build needs a commit}")
  tree="$work/tree-$rev"
  [ -d "$tree" ] || git worktree add -q --detach "$tree" "$rev"
  (cd "$tree" && cargo build -q --release -p pgn960-cli --bin pgn960 &&
    { cargo build -q --release -p pgn960-benches --bin peer 2>/dev/null || true; }) >&2
  echo "$tree/target/release/pgn960"
  exit 0
fi

old=${1:?usage: benches/regress.sh OLD_BIN NEW_BIN [FILE] [RUNS]}
new=${2:?usage: benches/regress.sh OLD_BIN NEW_BIN [FILE] [RUNS]}
file=${3:-}
runs=${4:-9}
if [ -z "$file" ]; then
  file="$work/bulk-300mb.pgn"
  if [ ! -s "$file" ]; then
    seed=../shared/data/corpus/lichess-style-4000.pgn
    [ -f "$seed" ] || seed=fixtures/sample.pgn
    if [ -f ../shared/tools/make_bulk.sh ]; then
      bash ../shared/tools/make_bulk.sh "$seed" "$file" 300
    else
      : > "$file"
      while [ "$(stat -c %s "$file")" -lt 300000000 ]; do cat "$seed" >> "$file"; echo >> "$file"; done
    fi
  fi
fi
[ "$(stat -c %F /dev/null)" = "character special file" ] || { echo "/dev/null is not a device" >&2; exit 2; }

echo "file: $file ($(stat -c %s "$file") bytes); $runs runs each, OLD and NEW alternating"
echo "OLD: $old"
echo "NEW: $new"
echo "load at start: $(uptime)"

# One timed run: appends "wall user sys" to $work/LABEL.times.
run() {
  local label=$1; shift
  /usr/bin/time -f "%e %U %S" -o "$work/time.out" "$@" > /dev/null 2>> "$work/regress-stderr.log" || true
  cat "$work/time.out" >> "$work/$label.times"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# NAME|ARGS (after the binary); output files go to $work.
commands=(
  "check-j1|-q -j1 check --max-errors 0 $file"
  "check-j2|-q -j2 check --max-errors 0 $file"
  "stats-headers-only|-q -j1 stats --headers-only -o $work/stats.csv $file"
  "clean-j1|-q -j1 clean $file -o $work/clean.pgn"
  "export-j1|-q -j1 export $file -o $work/export.parquet"
)
rm -f "$work"/*.times
for command in "${commands[@]}"; do
  IFS='|' read -r name args <<< "$command"
  for _ in $(seq "$runs"); do
    # shellcheck disable=SC2086
    run "$name-old" "$old" $args
    # shellcheck disable=SC2086
    run "$name-new" "$new" $args
  done
done
if [ -n "${OLD_PEER:-}" ] && [ -n "${NEW_PEER:-}" ]; then
  for _ in $(seq "$runs"); do
    run parse-only-old "$OLD_PEER" ours-parse "$file"
    run parse-only-new "$NEW_PEER" ours-parse "$file"
  done
fi

wall() { awk '{print $1}' "$work/$1.times" | median; }
cpu() { awk '{print $2 + $3}' "$work/$1.times" | median; }
printf "%-20s %10s %10s %8s %10s %10s %8s\n" command "old cpu" "new cpu" "new/old" "old wall" "new wall" "new/old"
for name in check-j1 check-j2 stats-headers-only clean-j1 export-j1 parse-only; do
  [ -s "$work/$name-old.times" ] || continue
  awk -v n="$name" -v co="$(cpu "$name-old")" -v cn="$(cpu "$name-new")" \
    -v wo="$(wall "$name-old")" -v wn="$(wall "$name-new")" 'BEGIN {
    if (co <= 0) co = 0.001; if (wo <= 0) wo = 0.001
    printf "%-20s %9.2fs %9.2fs %8.3f %9.2fs %9.2fs %8.3f\n", n, co, cn, cn / co, wo, wn, wn / wo }'
done
echo "load at end: $(uptime)"
