#!/usr/bin/env bash
# Soak: `clean`, then `filter`, `split` and `export`, of a generated archive of about
# SIZE_MB (default 2048) mixing every PGN fixture (damaged ones and fuzz regressions too),
# each with -j1 and -j2. Checks that games read = written + rejected (+ deduplicated) and
# that each command's summary adds up, that -j2 is byte-identical to -j1, and that the
# whole archive's `clean` counts are N times those of one copy of the mix; prints time and
# peak RSS of each run (GNU time) and the load. COMMANDS (default "clean filter split
# export") picks the commands. Each run's outputs are compared by SHA-256
# and deleted, so the disk holds the archive plus one run's outputs (about 2 x SIZE_MB);
# the script stops first when DIR has less free space. DIR is deleted at the end when the
# script made it (a temporary one when not given), unless KEEP=1.
# Usage: scripts/soak.sh [PGN960_BINARY] [SIZE_MB] [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/target/release/pgn960}
size_mb=${2:-2048}
made=0
if [[ -n ${3:-} ]]; then dir=$3; [[ -e $dir ]] || made=1; else dir=$(mktemp -d); made=1; fi
mkdir -p "$dir"
if (( made == 1 )) && [[ ${KEEP:-0} != 1 ]]; then trap 'rm -rf "$dir"' EXIT; fi
free_mb=$(( $(df --output=avail -k "$dir" | tail -1) / 1024 ))
if (( free_mb < size_mb * 21 / 10 )); then
  echo "FAIL: $free_mb MB free in $dir, the soak needs about $(( size_mb * 21 / 10 )) MB"
  exit 1
fi
mix=$dir/mix.pgn
: > "$mix"
find "$root/fixtures" -name '*.pgn' | sort | while read -r f; do
  cat "$f" >> "$mix"
  printf '\n\n' >> "$mix"
done
mix_bytes=$(stat -c %s "$mix")
copies=$(( size_mb * 1024 * 1024 / mix_bytes + 1 ))
archive=$dir/soak.pgn
: > "$archive"
# Doubling: a few appends, not one per copy.
block=$dir/block.pgn
cp "$mix" "$block"
n=1
while (( n * 2 <= copies )); do cat "$block" "$block" > "$block.2"; mv "$block.2" "$block"; n=$(( n * 2 )); done
left=$copies
while (( left >= n )); do cat "$block" >> "$archive"; left=$(( left - n )); done
for (( i = 0; i < left; i++ )); do cat "$mix" >> "$archive"; done
rm -f "$block"
echo "archive: $(stat -c %s "$archive") bytes, $copies copies of a $mix_bytes-byte mix of every fixture"

json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['games_read'], r['written'], r['rejected'], r['deduplicated'])" "$1"; }

commands=${COMMANDS:-clean filter split export}
if [[ " $commands " == *" clean "* ]]; then
"$bin" --no-progress -j1 clean "$mix" -o "$dir/one.pgn" --rejects "$dir/one.rejects.pgn" --report "$dir/one.json" >/dev/null || true
read -r m_read m_written m_rejected m_dedup < <(json "$dir/one.json")
for j in 1 2; do
  echo "load before -j$j: $(cut -d' ' -f1-3 /proc/loadavg)"
  /usr/bin/time -f "-j$j: %e s, %U s user, %S s sys, peak RSS %M KB" -o "$dir/time.$j" \
    "$bin" --no-progress -j$j clean "$archive" -o "$dir/j$j.pgn" --rejects "$dir/j$j.rejects.pgn" --report "$dir/j$j.json" >/dev/null || true
  cat "$dir/time.$j"
  read -r read written rejected dedup < <(json "$dir/j$j.json")
  echo "-j$j: read $read = written $written + rejected $rejected + deduplicated $dedup"
  (( read == written + rejected + dedup )) || { echo "FAIL: counts do not add up"; exit 1; }
  (( read == m_read * copies && written == m_written * copies && rejected == m_rejected * copies )) \
    || echo "NOTE: not $copies x one copy ($m_read read, $m_written written, $m_rejected rejected): a damaged fixture at a copy's end reads into the next"
  # Compared by digest, then deleted: the next run's outputs take their place on the disk.
  for f in pgn rejects.pgn rejects.tsv; do
    sha256sum < "$dir/j$j.$f" > "$dir/j$j.$f.sha256"
    echo "-j$j .$f: $(stat -c %s "$dir/j$j.$f") bytes"
    rm -f "$dir/j$j.$f"
  done
done
for f in pgn rejects.pgn rejects.tsv; do
  cmp -s "$dir/j1.$f.sha256" "$dir/j2.$f.sha256" || { echo "FAIL: -j2 differs from -j1 in .$f"; exit 1; }
done
echo "ok: -j2 byte-identical to -j1 (kept, rejects, TSV: same SHA-256)"
fi

# The digest of a run's outputs (files, or every file of a directory), for -j1 against -j2.
digest() { if [[ -d $1 ]]; then (cd "$1" && find . -type f | sort | xargs -r sha256sum) | sha256sum; else sha256sum < "$1"; fi; }

# `filter`, `split` and `export`: the summary's "games read N = A + B (+ C)" must add up,
# and -j2 must write what -j1 wrote.
for cmd in filter split export; do
  [[ " $commands " == *" $cmd "* ]] || continue
  for j in 1 2; do
    out=$dir/$cmd.j$j
    case $cmd in
      filter) args=(filter "$archive" --sp 0-959 -o "$out.pgn" --rejects "$out.rejects.pgn"); outs=("$out.pgn" "$out.rejects.pgn" "$out.rejects.tsv");;
      split) args=(split "$archive" --by sp -o "$out.d" --rejects "$out.rejects.pgn"); outs=("$out.d" "$out.rejects.pgn" "$out.rejects.tsv");;
      export) args=(export "$archive" -o "$out.parquet"); outs=("$out.parquet");;
    esac
    echo "load before $cmd -j$j: $(cut -d' ' -f1-3 /proc/loadavg)"
    /usr/bin/time -f "$cmd -j$j: %e s, %U s user, %S s sys, peak RSS %M KB" -o "$dir/time" \
      "$bin" --no-progress -j$j "${args[@]}" > /dev/null 2> "$out.summary" || true
    cat "$dir/time"
    line=$(grep -m1 -E '^games read [0-9]+ =' "$out.summary" || true)
    echo "$cmd -j$j: $line"
    python3 - "$line" <<'PY' || { echo "FAIL: $cmd -j$j: the summary does not add up"; exit 1; }
import re, sys
numbers = [int(n) for n in re.findall(r"\d+", sys.argv[1])]
sys.exit(0 if len(numbers) >= 3 and numbers[0] == sum(numbers[1:]) else 1)
PY
    : > "$out.sha256"
    for f in "${outs[@]}"; do
      [[ -e $f ]] && digest "$f" >> "$out.sha256"
      rm -rf "$f"
    done
  done
  cmp -s "$dir/$cmd.j1.sha256" "$dir/$cmd.j2.sha256" || { echo "FAIL: $cmd -j2 differs from -j1"; exit 1; }
  echo "ok: $cmd -j2 byte-identical to -j1"
done
