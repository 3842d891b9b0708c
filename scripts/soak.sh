#!/usr/bin/env bash
# Soak: `clean` of a generated archive of about SIZE_MB (default 2048) mixing every PGN
# fixture (damaged ones and fuzz regressions too), with -j1 and -j2. Checks that
# games read = written + rejected (+ deduplicated), that -j2 is byte-identical to -j1, and
# that the whole archive's counts are N times those of one copy of the mix; prints time and
# peak RSS of each run (GNU time) and the load. Each run's outputs are compared by SHA-256
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
