#!/usr/bin/env bash
# Every command that reads games against `check -j1` (issue 25: each at 90% of its
# throughput or more; `export -j1` at 70%; `export -j2` 1.8x `export -j1`), one binary, one
# file, in one run: the commands alternate (check, filter, split, ... , check, filter, ...),
# medians of CPU time (user + system) and wall time, and each command's throughput as a
# fraction of check's (check's median over the command's). The load is printed at start and
# end: a figure taken under load is not a figure.
#
# Usage:
#   benches/commands.sh BIN [FILE] [RUNS=7]
#   benches/commands.sh --instructions BIN [FILE]   # instruction counts instead (valgrind
#                                                   # callgrind, -j1 commands only): repeatable
#                                                   # on a loaded machine; use a small FILE
# BIN is a `pgn960` release build (cargo build --release -p pgn960-cli). Without FILE, the
# 300 MB file of benches/regress.sh ($PGN960_BENCH_DIR/bulk-300mb.pgn) is used (made there
# by regress.sh when missing). Outputs go to $PGN960_BENCH_DIR/commands (default
# /tmp/pgn960-bench/commands).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${PGN960_BENCH_DIR:-/tmp/pgn960-bench}
if [ "${1:-}" = "--help" ] || [ "${1:-}" = "-h" ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  exit 0
fi
mode=time
if [ "${1:-}" = "--instructions" ]; then
  mode=instructions
  shift
fi
bin=${1:?usage: benches/commands.sh [--instructions] BIN [FILE] [RUNS]}
file=${2:-$work/bulk-300mb.pgn}
runs=${3:-7}
[ -s "$file" ] || { echo "no such file: $file (benches/regress.sh makes the default one)" >&2; exit 2; }
[ "$(stat -c %F /dev/null)" = "character special file" ] || { echo "/dev/null is not a device" >&2; exit 2; }
out="$work/commands"
rm -rf "$out"
mkdir -p "$out"

# NAME|ARGS (after the binary). check-j1 first: the others are measured against it.
commands=(
  "check-j1|-q -j1 check --max-errors 0 $file"
  "filter-j1|-q -j1 filter --sp 0-959 $file -o $out/filter.pgn"
  "split-j1|-q -j1 split --by sp $file -o $out/split"
  "stats-j1|-q -j1 stats $file -o $out/stats.csv"
  "tree-j1|-q -j1 tree --depth 2 $file -o $out/tree.csv"
  "report-j1|-q -j1 report $file -o $out/report.html"
  "export-j1|-q -j1 export $file -o $out/export.parquet"
  "export-j2|-q -j2 export $file -o $out/export.parquet"
)
echo "binary: $bin"
echo "file: $file ($(stat -c %s "$file") bytes)"
echo "load at start: $(uptime)"

if [ "$mode" = instructions ]; then
  command -v valgrind > /dev/null || { echo "valgrind is not installed" >&2; exit 2; }
  printf "%-12s %18s %8s\n" command instructions "÷ check"
  check=
  for command in "${commands[@]}"; do
    IFS='|' read -r name args <<< "$command"
    case $name in *-j1) ;; *) continue ;; esac
    rm -rf "$out/split"
    # shellcheck disable=SC2086
    n=$(valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.$name" "$bin" $args 2>&1 \
      > /dev/null | awk '/Collected/ {print $4}')
    check=${check:-$n}
    awk -v name="$name" -v n="$n" -v c="$check" \
      'BEGIN { printf "%-12s %16.1f M %8.3f\n", name, n / 1e6, c / n }'
  done
  echo "load at end: $(uptime)"
  exit 0
fi

# Every run writes new outputs in a directory of its own, removed only at the end: a command
# timed right after the removal of its last run's files would pay for that removal (ext4
# scans past recently freed inodes when it creates files: split's 941 files cost from 0.02 s
# to 0.6 s of system time by what was deleted in the minutes before; replacing an output
# frees the old one's pages inside the rename).
for run in $(seq "$runs"); do
  mkdir -p "$out/run.$run"
  for command in "${commands[@]}"; do
    IFS='|' read -r name args <<< "$command"
    args=${args//"$out/"/"$out/run.$run/"}
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %U %S" -o "$out/time.out" "$bin" $args > /dev/null 2>> "$out/stderr.log" || true
    cat "$out/time.out" >> "$out/$name.times"
  done
done
rm -rf "$out"/run.*
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
wall() { awk '{print $1}' "$out/$1.times" | median; }
cpu() { awk '{print $2 + $3}' "$out/$1.times" | median; }
printf "%-12s %9s %9s %14s %14s\n" command cpu wall "cpu ÷ check" "wall ÷ check"
for command in "${commands[@]}"; do
  IFS='|' read -r name _ <<< "$command"
  awk -v n="$name" -v c="$(cpu "$name")" -v w="$(wall "$name")" \
    -v cc="$(cpu check-j1)" -v cw="$(wall check-j1)" 'BEGIN {
    if (c <= 0) c = 0.001; if (w <= 0) w = 0.001
    printf "%-12s %8.2fs %8.2fs %14.3f %14.3f\n", n, c, w, cc / c, cw / w }'
done
awk -v a="$(wall export-j1)" -v b="$(wall export-j2)" \
  'BEGIN { if (b > 0) printf "export -j2 against -j1 (wall): %.2fx\n", a / b }'
echo "load at end: $(uptime)"
