#!/usr/bin/env bash
# Soak: `clean` of a generated archive of about SIZE_MB (default 2048) mixing every PGN
# fixture (damaged ones and fuzz regressions too), with -j1 and -j2. Checks that
# games read = written + rejected (+ deduplicated), that -j2 is byte-identical to -j1, and
# that the whole archive's counts are N times those of one copy of the mix; prints time and
# peak RSS of each run (GNU time). Usage: scripts/soak.sh [PGN960_BINARY] [SIZE_MB] [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/target/release/pgn960}
size_mb=${2:-2048}
dir=${3:-$(mktemp -d)}
mkdir -p "$dir"
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
  /usr/bin/time -f "-j$j: %e s, peak RSS %M KB" -o "$dir/time.$j" \
    "$bin" --no-progress -j$j clean "$archive" -o "$dir/j$j.pgn" --rejects "$dir/j$j.rejects.pgn" --report "$dir/j$j.json" >/dev/null || true
  cat "$dir/time.$j"
  read -r read written rejected dedup < <(json "$dir/j$j.json")
  echo "-j$j: read $read = written $written + rejected $rejected + deduplicated $dedup"
  (( read == written + rejected + dedup )) || { echo "FAIL: counts do not add up"; exit 1; }
  (( read == m_read * copies && written == m_written * copies && rejected == m_rejected * copies )) \
    || echo "NOTE: not $copies x one copy ($m_read read, $m_written written, $m_rejected rejected): a damaged fixture at a copy's end reads into the next"
done
for f in pgn rejects.pgn rejects.tsv; do
  cmp "$dir/j1.$f" "$dir/j2.$f" || { echo "FAIL: -j2 differs from -j1 in .$f"; exit 1; }
done
echo "ok: -j2 byte-identical to -j1 (kept, rejects, TSV)"
