//! Annotations read from the real files of each producer (`../shared/data`; skipped
//! without it): TCEC engine comments, cutechess scores, lichess broadcast commands.

use pgn960::validate::ValidateOptions;
use pgn960::{Archive, RecordOptions};
use test_support::shared_data;

/// Moves of the valid games of a file with a clock, an evaluation, a move time and a
/// depth, and the number of valid games.
#[derive(Debug, Default, PartialEq)]
struct Found {
    games: usize,
    clocks: usize,
    evals: usize,
    emts: usize,
    depths: usize,
}

fn found_in(test: &str, relative: &str) -> Option<Found> {
    let path = shared_data(test, relative)?;
    let options = RecordOptions {
        validate: ValidateOptions {
            moves: true,
            ..ValidateOptions::default()
        },
        ..RecordOptions::default()
    };
    let archive = Archive::open(&path)
        .expect("readable")
        .with_options(options);
    let mut found = Found::default();
    for record in archive.records() {
        let record = record.expect("readable");
        let Some(game) = record.valid() else {
            continue;
        };
        found.games += 1;
        for m in &game.moves {
            let a = &m.annotations;
            found.clocks += usize::from(a.clock.is_some());
            found.evals += usize::from(a.eval.is_some());
            found.emts += usize::from(a.emt.is_some());
            found.depths += usize::from(a.depth.is_some());
        }
    }
    Some(found)
}

/// How often `needle` occurs in the file.
fn occurrences(relative: &str, needle: &str) -> usize {
    let path = test_support::shared_data_dir()
        .expect("shared data")
        .join(relative);
    std::fs::read_to_string(path)
        .expect("readable")
        .matches(needle)
        .count()
}

#[test]
fn tcec_comments_give_every_move_its_clock_time_and_depth() {
    let Some(dir) = shared_data("tcec", "pgn/tcec") else {
        return;
    };
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".pgn"))
        .collect();
    files.sort();
    assert!(files.len() >= 2, "{files:?}");
    for name in files {
        let relative = format!("pgn/tcec/{name}");
        let found = found_in("tcec", &relative).expect("present");
        assert!(found.games > 0, "{name}");
        // Every engine move's comment has `tl=` and `mt=` once; every game is valid, so
        // each is counted once with its move.
        let engine_moves = occurrences(&relative, "tl=");
        assert_eq!(found.clocks, engine_moves, "{name}");
        assert_eq!(found.emts, engine_moves, "{name}");
        assert_eq!(
            found.depths,
            occurrences(&relative, " d=") + occurrences(&relative, "{d="),
            "{name}"
        );
        // Every `wv=` is read but `M1`/`-M1` (the move mates).
        let mates_on_board = occurrences(&relative, "wv=M1,") + occurrences(&relative, "wv=-M1,");
        assert_eq!(
            found.evals,
            occurrences(&relative, "wv=") - mates_on_board,
            "{name}"
        );
        assert!(found.evals > 0 && found.clocks > 0, "{name}: {found:?}");
    }
}

#[test]
fn cutechess_scores_give_evals_depths_and_times() {
    let relative = "pgn/cutechess-fischerrandom.pgn";
    let Some(found) = found_in("cutechess", relative) else {
        return;
    };
    assert_eq!(found.games, 4);
    // One `score/depth time` comment per engine move, ending in `s}` or `s, … mates}`.
    let comments = occurrences(relative, "s}");
    assert_eq!(found.depths, comments);
    assert_eq!(found.emts, comments);
    let mates_on_board = occurrences(relative, "M1/");
    assert_eq!(found.evals, comments - mates_on_board);
    assert!(found.evals > 0);
    assert_eq!(found.clocks, 0);
}

#[test]
fn lichess_broadcast_clocks_and_evals_are_still_read() {
    let relative = "pgn/lichess-broadcast/freestyle-vegas-2025-grand-final.pgn";
    let Some(found) = found_in("broadcast", relative) else {
        return;
    };
    assert_eq!(found.games, 4);
    assert_eq!(found.clocks, occurrences(relative, "[%clk "));
    assert_eq!(found.evals, occurrences(relative, "[%eval "));
    assert_eq!((found.emts, found.depths), (0, 0));
}

#[test]
fn fics_bare_second_move_times_are_not_read() {
    // FICS writes `[%emt 2.25]`, bare seconds: not a documented form, so null.
    let Some(found) = found_in("fics", "pgn/fics-chess960.pgn") else {
        return;
    };
    assert!(found.games > 0);
    assert_eq!(
        found,
        Found {
            games: found.games,
            ..Found::default()
        }
    );
}
