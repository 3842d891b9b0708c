#!/usr/bin/env bash
# Whole-CLI benchmark: pgn960 next to the pgn-reader + shakmaty peer, on the same machine, the same file, in the same run, alternating the commands of each group
# and reporting medians of wall time and CPU time (user + system), MB/s, games/s, ratios and
# peak RSS (/usr/bin/time).
#
# The peer is pgn-reader 0.29.1 + shakmaty 0.30.1 (benches/peer-latest, a crate outside the
# workspace: pgn-reader 0.29.1 declares rust-version 1.97, newer than the toolchain, so it is
# built with `cargo build --ignore-rust-version`); the rows marked -0.29.0 are the same peer
# code on pgn-reader 0.29.0 (the `peer` binary of benches/, in the workspace), kept as a
# second row. If peer-latest does not build, its rows are left out and said so.
#
# Usage: benches/compare.sh [CORPUS.pgn] [SIZE_MB=1000] [RUNS=3]
# Without CORPUS, a lichess-style corpus of SIZE_MB is made from ../shared/data/corpus (with
# ../shared/tools/make_bulk.sh when present), else from fixtures/sample.pgn. Files go to
# $PGN960_BENCH_DIR (default: a new temporary directory) and are reused when present.
#
# PGN960_BENCH_GROUPS: run only these groups, named by their first label (e.g.
#   "clean-j2 check-j1"; "heap" for the heap check); default: every group but the
#   compressed ones.
# PGN960_BENCH_COMPRESSED=1: also the corpus compressed with zstd -3 and gzip -6 (made once
#   in $PGN960_BENCH_DIR): check -j2 against -j1 on each, and `peer cut` (the calling
#   thread's part alone: decoding and cutting into chunks) to say whether it is the bound.
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
groups_wanted=${PGN960_BENCH_GROUPS:-}
compressed=${PGN960_BENCH_COMPRESSED:-0}
# wanted LABEL: whether the group LABEL (its first label) is to run.
wanted() {
  if [ -z "$groups_wanted" ]; then
    case $1 in *-zst|*-gz) [ "$compressed" = 1 ] ;; *) true ;; esac
  else
    case " $groups_wanted " in *" $1 "*) true ;; *) false ;; esac
  fi
}

fens="$work/fens-1m.epd"
if wanted xfen-j1 && [ ! -s "$fens" ]; then
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
zst="$work/$(basename "$corpus").zst"
gz="$work/$(basename "$corpus").gz"
if [ "$compressed" = 1 ] || wanted check-j2-zst || wanted check-j2-gz; then
  [ -s "$zst" ] || zstd -3 -q -f -o "$zst" "$corpus"
  [ -s "$gz" ] || gzip -6 -c "$corpus" > "$gz"
fi

cargo build -q --release -p pgn960-cli -p pgn960-benches --bin pgn960 --bin peer
pgn960=target/release/pgn960
peer=target/release/peer
# The peer on pgn-reader 0.29.1: its own lock file and target directory, --ignore-rust-version.
latest=target/peer-latest/release/peer-latest
if ! cargo build -q --release --ignore-rust-version --manifest-path benches/peer-latest/Cargo.toml \
  --target-dir target/peer-latest; then
  echo "peer-latest (pgn-reader 0.29.1) did not build: its rows are left out" >&2
  latest=
fi
# pgn-reader 0.29.1's own examples (`validate`, `stats`), the figures its README gives: built
# from its registry source (fetched by the peer-latest build) with shakmaty held at 0.30.1,
# the newest that builds here. Left out, and said so, when that fails.
examples=target/pgn-reader-examples
if [ -n "$latest" ] && [ ! -x "$examples/target/release/examples/stats" ]; then
  source_dir=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/pgn-reader-0.29.1 2>/dev/null | head -1)
  if [ -n "$source_dir" ]; then
    rm -rf "$examples" && cp -r "$source_dir" "$examples"
    # A crate of its own, not a member of this workspace (the copy sits under its target/).
    printf '\n[workspace]\n' >> "$examples/Cargo.toml"
    (cd "$examples" && cargo update -q -p shakmaty --precise 0.30.1 --ignore-rust-version \
      && cargo build -q --release --ignore-rust-version --example stats --example validate) \
      || echo "pgn-reader's examples did not build: their rows are left out" >&2
  fi
fi
example_validate= example_stats=
if [ -x "$examples/target/release/examples/stats" ]; then
  example_validate="|validate-example|$examples/target/release/examples/validate $corpus"
  example_stats="|stats-example|$examples/target/release/examples/stats $corpus"
fi
bytes=$(stat -c %s "$corpus")
games=$($peer parse "$corpus" | awk '{print $2}')
echo "corpus: $corpus ($bytes bytes, $games games); FEN list: $fens (1,000,000 lines); $runs runs each, alternating within each group"
echo "load at start: $(uptime)"

# run LABEL CMD... : one timed run; appends "seconds rss_kb user_s sys_s" to $work/LABEL.times
run() {
  local label=$1; shift
  /usr/bin/time -f "%e %M %U %S" -o "$work/time.out" "$@" > /dev/null 2>> "$work/stderr.log" || true
  cat "$work/time.out" >> "$work/$label.times"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# Groups of LABEL|COMMAND, run in turn RUNS times (A B C A B C ...). Output files go to $work.
clean_cmd="-q clean $corpus -o $work/clean-out.pgn"
peer_check="peer-check-0.29.0|$peer check $corpus|peer-check-buffered-0.29.0|$peer check-buffered $corpus"
peer_parse="parse-peer-0.29.0|$peer parse $corpus"
if [ -n "$latest" ]; then
  peer_check="peer-check|$latest check $corpus|peer-check-buffered|$latest check-buffered $corpus|$peer_check"
  peer_parse="parse-peer|$latest parse $corpus|$peer_parse"
fi
groups=(
  "check-j1|$pgn960 -q -j1 check --max-errors 0 $corpus|$peer_check$example_validate"
  "parse-ours|$peer ours-parse $corpus|$peer_parse"
  "check-j2|$pgn960 -q -j2 check --max-errors 0 $corpus|check-j1b|$pgn960 -q -j1 check --max-errors 0 $corpus"
  "clean-j2|$pgn960 -j2 $clean_cmd|clean-j1|$pgn960 -j1 $clean_cmd"
  "stats-headers-j1|$pgn960 -q -j1 stats --headers-only -o /dev/null $corpus|stats-replay-j1|$pgn960 -q -j1 stats -o /dev/null $corpus$example_stats"
  "xfen-j1|$pgn960 -q -j1 xfen --to shredder -o /dev/null $fens|xfen-peer|$peer xfen $fens"
  "check-j2-zst|$pgn960 -q -j2 check --max-errors 0 $zst|check-j1-zst|$pgn960 -q -j1 check --max-errors 0 $zst|cut-zst|$peer cut $zst"
  "check-j2-gz|$pgn960 -q -j2 check --max-errors 0 $gz|check-j1-gz|$pgn960 -q -j1 check --max-errors 0 $gz|cut-gz|$peer cut $gz"
)
rm -f "$work"/*.times
for group in "${groups[@]}"; do
  IFS='|' read -r -a fields <<< "$group"
  wanted "${fields[0]}" || continue
  for _ in $(seq "$runs"); do
    for (( i = 0; i < ${#fields[@]}; i += 2 )); do
      # shellcheck disable=SC2086
      run "${fields[i]}" ${fields[i + 1]}
    done
  done
done

# Peak heap against input size: the corpus streamed through standard input (no memory map,
# so the peak RSS is heap and buffers only), once and four times over (4x the bytes).
heap() {
  local copies=$1
  for _ in $(seq "$copies"); do cat "$corpus"; done |
    /usr/bin/time -f "%e %M %U %S" -o "$work/time.out" $pgn960 -q -j2 check --max-errors 0 - > /dev/null 2>> "$work/stderr.log" || true
  cat "$work/time.out" >> "$work/heap-${copies}x.times"
}
if wanted heap; then
  heap 1
  heap 4
fi

# column N of LABEL's times, median
med() { awk -v c="$2" '{print $c}' "$work/$1.times" | median; }
cpu() { awk '{print $3 + $4}' "$work/$1.times" | median; }
report() {
  local label=$1 unit=$2 secs rss
  [ -s "$work/$label.times" ] || return 0
  secs=$(med "$label" 1)
  rss=$(awk '{print $2}' "$work/$label.times" | sort -n | tail -1)
  awk -v l="$label" -v s="$secs" -v c="$(cpu "$label")" -v r="$rss" -v b="$bytes" -v g="$games" -v u="$unit" 'BEGIN {
    if (s <= 0) s = 0.001
    if (u == "fens") printf "%-20s %7.2f s %10.0f FENs/s                  cpu %6.2f s   peak RSS %6.1f MB\n", l, s, 1000000 / s, c, r / 1024
    else printf "%-20s %7.2f s %7.0f MB/s %9.0f games/s   cpu %6.2f s   peak RSS %6.1f MB\n", l, s, b / 1e6 / s, g / s, c, r / 1024
  }'
}
ratio() { # ratio A B : time(B) / time(A) = throughput(A) / throughput(B)
  [ -s "$work/$1.times" ] && [ -s "$work/$2.times" ] || return 0
  awk -v a="$1" -v b="$2" -v ta="$(med "$1" 1)" -v tb="$(med "$2" 1)" -v ca="$(cpu "$1")" -v cb="$(cpu "$2")" 'BEGIN {
    if (ta <= 0) ta = 0.001; if (ca <= 0) ca = 0.001
    printf "  %-44s %5.2fx   (cpu time B/A %5.2f)\n", a " vs " b, tb / ta, cb / ca }'
}
echo
for l in check-j1 peer-check peer-check-buffered peer-check-0.29.0 peer-check-buffered-0.29.0 \
  validate-example stats-example parse-ours parse-peer parse-peer-0.29.0 check-j2 check-j1b clean-j2 clean-j1 \
  stats-headers-j1 stats-replay-j1 check-j2-zst check-j1-zst cut-zst check-j2-gz check-j1-gz cut-gz; do
  report "$l" games
done
for l in xfen-j1 xfen-peer; do report "$l" fens; done
if [ -s "$work/heap-1x.times" ]; then
  h1=$(awk '{print $2}' "$work/heap-1x.times" | tail -1)
  h4=$(awk '{print $2}' "$work/heap-4x.times" | tail -1)
  awk -v a="$h1" -v b="$h4" 'BEGIN { printf "\nheap (check -j2 from stdin, no map): 1x corpus %.1f MB, 4x corpus %.1f MB, 4x/1x %.2f\n", a / 1024, b / 1024, b / a }'
  echo "(peak RSS of mapped runs above includes the file pages the map has touched)"
fi
echo
echo "ratios (throughput, above 1 = the first faster):"
ratio check-j1 peer-check
ratio check-j1 peer-check-buffered
ratio check-j1 peer-check-0.29.0
ratio check-j1 peer-check-buffered-0.29.0
ratio check-j1 validate-example
ratio stats-headers-j1 stats-example
ratio parse-ours parse-peer
ratio parse-ours parse-peer-0.29.0
ratio check-j2 check-j1b
ratio clean-j2 clean-j1
ratio xfen-j1 xfen-peer
ratio check-j2-zst check-j1-zst
ratio check-j2-gz check-j1-gz
# The calling thread decodes and cuts (X s of cpu, `peer cut`) while the workers validate;
# the whole run takes T s of cpu (check -j1). On C cores the wall time is at least
# max(X, T / C): decoding is the bound from C = T / X cores on (cpu times, so the figure
# holds on a busy machine).
for c in zst gz; do
  [ -s "$work/cut-$c.times" ] && [ -s "$work/check-j1-$c.times" ] || continue
  awk -v c="$c" -v x="$(cpu "cut-$c")" -v t="$(cpu "check-j1-$c")" -v b="$bytes" 'BEGIN {
    if (x <= 0) x = 0.001
    printf "  %s: decoding and cutting %.2f s of cpu on the calling thread, of %.2f s for the whole check: at most %.0f MB/s whatever the cores; the bound from %.1f cores on%s\n",
      c, x, t, b / 1e6 / x, t / x, (t / x <= 2) ? " (already on 2)" : " (not on 2)" }'
done
echo "load at end: $(uptime)"
