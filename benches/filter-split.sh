#!/usr/bin/env bash
# Benchmark of issue 14: filter against stats --headers-only, split --by sp against clean.
# Needs hyperfine and a release build (cargo build --release -p pgn960-cli). 3 runs each, medians.
set -euo pipefail
B=${B:-$(dirname "$0")/../target/release/pgn960}
IN=${1:?usage: benches/filter-split.sh CORPUS.pgn (e.g. ../shared/tools/make_bulk.sh ... 200)}
O=${PGN960_BENCH_DIR:-/tmp/bench}/filter-split; mkdir -p $O
hyperfine --runs 3 --warmup 1 --export-json $O/bench.json \
  -n stats-headers-only "$B --no-progress stats --headers-only $IN -o $O/stats.csv" \
  -n filter-narrow "$B --no-progress -q filter $IN -o $O/narrow.pgn --sp 518,0-10 --min-elo 2000" \
  -n filter-broad "$B --no-progress -q filter $IN -o $O/broad.pgn --sp 0-479 --min-elo 1800" \
  -n filter-count-narrow "$B --no-progress -q filter $IN --count --sp 518,0-10 --min-elo 2000" \
  -n clean "$B --no-progress -q clean $IN -o $O/clean.pgn" \
  -n split-sp "$B --no-progress -q split $IN --by sp --force -o $O/by-sp"
python3 - $O/bench.json $IN <<'PY'
import json, os, statistics, sys
size = os.path.getsize(sys.argv[2])
for r in json.load(open(sys.argv[1]))["results"]:
    med = statistics.median(r["times"])
    print(f'{r["command"]:<22} median {med:6.2f} s  {size/med/1e6:7.1f} MB/s  runs {", ".join(f"{t:.2f}" for t in r["times"])}')
PY
