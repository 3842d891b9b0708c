#!/usr/bin/env bash
# Runs every command of two pgn960 binaries on the same inputs and compares what they
# write, byte for byte: the output files, the rejects, the JSON reports (with the
# durations blanked), standard output and the exit status.
#
#   scripts/compare_outputs.sh OLD_BIN NEW_BIN [INPUT...]
#
# Without inputs: the fixtures, every PGN file of the shared data (../shared/data or
# $PGN960_SHARED_DATA) and its corpus. Each command runs with -j1 and -j2. Prints one line
# per difference and exits 1 if there was any.
set -u
old=$(realpath "$1")
new=$(realpath "$2")
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
data=${PGN960_SHARED_DATA:-$here/../shared/data}
if [ $# -gt 0 ]; then
    inputs=("$@")
else
    mapfile -t inputs < <(
        find "$here/fixtures" -name '*.pgn' -size -2M | sort
        [ -d "$data" ] && find "$data/pgn" "$data/corpus" -name '*.pgn' | sort
    )
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
differences=0

# The runs of one input: a name and the arguments after the binary (OUT is the directory
# of the run's outputs).
runs() {
    local in=$1
    cat <<EOF
check	check --json $in
clean	clean $in -o OUT/clean.pgn --rejects OUT/rejects.pgn --report OUT/report.json
clean-dedupe	clean --dedupe --drop-bad-variations --fen-style shredder $in -o OUT/clean.pgn --report OUT/report.json
filter	filter --sp 0-959 $in -o OUT/filter.pgn --rejects OUT/rejects.pgn --report OUT/report.json
filter-elo	filter --min-elo 1800 --time-control blitz $in -o OUT/filter.pgn --report OUT/report.json
filter-normalise	filter --normalise --sp 0-959 $in -o OUT/filter.pgn --rejects OUT/rejects.pgn --report OUT/report.json
filter-count	filter --count --player a $in --report OUT/report.json
split	split --by sp $in -o OUT/split --rejects OUT/rejects.pgn --report OUT/report.json
export	export $in -o OUT/export.csv --format csv --include-invalid
export-ply	export --per ply $in -o OUT/export.jsonl --format jsonl
stats	stats $in -o OUT/stats.csv --report OUT/report.json
stats-by	stats --by time-control --by month $in -o OUT/stats.csv --report OUT/report.json
stats-headers	stats --headers-only $in -o OUT/stats.json --format json --report OUT/report.json
stats-pairs	stats $in -o OUT/stats.csv --pairs OUT/pairs.csv
tree	tree --depth 2 $in -o OUT/tree.csv --report OUT/report.json
tree-json	tree --depth 3 $in -o OUT/tree.json
tree-positions	tree --positions --depth 4 $in -o OUT/positions.csv
report	report --depth 2 $in -o OUT/report.html
xfen	xfen --to shredder $in -o OUT/xfen.pgn
EOF
}

# Blanks what may differ between two runs of the same binary: the run's directory $1,
# durations and throughputs.
normalise() {
    sed -E -e "s#$1#OUT#g" -e 's/"(seconds|elapsed_seconds|games_per_second|mb_per_second|duration_ms)": ?[0-9.e+-]+/"\1": 0/g' \
        -e 's/[0-9.]+ ?(s|ms|MB\/s|games\/s)\b/T\1/g' \
        -e 's/(generated|Generated)[^<"]*/\1/g'
}

# Runs one command with one binary into `dir`.
run_one() {
    local bin=$1 dir=$2 threads=$3 args=$4
    mkdir -p "$dir"
    # shellcheck disable=SC2086
    (cd "$dir" && "$bin" -j"$threads" --no-progress ${args//OUT/$dir} >stdout 2>stderr)
    echo $? >"$dir/status"
    rm -f "$dir/stderr"
    for f in "$dir"/*.json "$dir"/stdout "$dir"/*.html; do
        [ -f "$f" ] && normalise "$dir" <"$f" >"$f.n" && mv "$f.n" "$f"
    done
}

for in in "${inputs[@]}"; do
    while IFS=$'\t' read -r name args; do
        for threads in 1 2; do
            run="$work/run"
            rm -rf "$run"
            run_one "$old" "$run/old" "$threads" "$args"
            run_one "$new" "$run/new" "$threads" "$args"
            if ! diff -r "$run/old" "$run/new" >"$work/diff" 2>&1; then
                differences=$((differences + 1))
                echo "DIFFERS: $name -j$threads $in"
                head -20 "$work/diff" | sed 's/^/    /'
            fi
        done
    done < <(runs "$in")
done
sp_old=$("$old" sp --all --json | md5sum)
sp_new=$("$new" sp --all --json | md5sum)
[ "$sp_old" = "$sp_new" ] || { differences=$((differences + 1)); echo "DIFFERS: sp --all --json"; }
echo "${#inputs[@]} inputs compared; $differences difference(s)"
[ "$differences" -eq 0 ]
