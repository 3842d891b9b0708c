//! The real Chess960 PGN files in `../shared/data/pgn` and the lichess-style corpus (needs
//! the shared data; skips when absent): every game read, none damaged, counts as its README.

use pgn_parse::{read_games, read_games_at, split_at_game_boundaries, MovetextEnd};

const FILES: &[(&str, usize)] = &[
    (
        "pgn/chesscom/freestyle-paris-2025-playin-swiss.excerpt.pgn",
        2,
    ),
    ("pgn/cutechess-fischerrandom.pgn", 4),
    ("pgn/fastchess-dfrc.pgn", 4),
    ("pgn/fics-chess960.pgn", 12),
    ("pgn/kokopu-chess960-database.pgn", 4),
    (
        "pgn/lichess-broadcast/biel-2025-freestyle-swiss.excerpt.pgn",
        1,
    ),
    (
        "pgn/lichess-broadcast/freestyle-finals-2025-ko.excerpt.pgn",
        1,
    ),
    (
        "pgn/lichess-broadcast/freestyle-vegas-2025-grand-final.pgn",
        4,
    ),
    (
        "pgn/lichess-broadcast/schach960-festival-2025.excerpt.pgn",
        2,
    ),
    ("pgn/pychess-chess960rwch.pgn", 20),
    ("pgn/tcec/TCEC_Season_16_-_Frc_Cpu_League_1.pgn", 90),
    ("pgn/tcec/TCEC_Season_19_-_Frc2_Final.pgn", 50),
    ("pgn/tcec/TCEC_Season_21_-_Frc4_League_A.pgn", 60),
    ("pgn/tcec/TCEC_Season_22_-_Bonus_Dfrc_1_Final.pgn", 50),
    ("pgn/tcec/TCEC_Season_24_-_Dfrc_2_Final.pgn", 50),
    ("pgn/tcec/TCEC_Season_24_-_Dfrc_2_League_1.pgn", 112),
    (
        "pgn/tcec/TCEC_Season_26_-_Frc_No_Castling_Kibitzer_Bonus.pgn",
        24,
    ),
    ("pgn/tcec/TCEC_Season_28_-_Frd_4_League_A.pgn", 84),
    ("pgn/tcec/TCEC_Season_29_-_Frc_Decisive_Rapid_Bonus.pgn", 56),
    ("pgn/tcec/TCEC_Season_29_-_Frd_5_Final.pgn", 50),
    ("pgn/tcec/TCEC_Season_6_-_FRC.pgn", 112),
    ("corpus/lichess-style-4000.pgn", 4000),
];

#[test]
fn every_real_file_reads_with_the_expected_game_count_and_no_errors() {
    let Some(dir) = test_support::shared_data(module_path!(), ".") else {
        return;
    };
    let mut total = 0;
    for &(file, expected) in FILES {
        let bytes = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let games: Vec<_> = read_games(&bytes).collect();
        assert_eq!(games.len(), expected, "{file}: game count");
        for game in &games {
            let game = game
                .as_ref()
                .unwrap_or_else(|bad| panic!("{file}: {}", bad.error));
            assert!(
                matches!(game.movetext_end, MovetextEnd::Result(_)),
                "{file}: game {} at line {} has no result",
                game.index,
                game.line
            );
            assert!(
                game.tag(b"FEN").is_some(),
                "{file}: game {} has no FEN",
                game.index
            );
        }
        // Chunked reading agrees with sequential reading.
        for target in [1, 1000, 100_000] {
            let chunks = split_at_game_boundaries(&bytes, target);
            let mut ranges = Vec::new();
            for c in &chunks {
                for g in read_games_at(&bytes[c.range.clone()], c.origin()) {
                    ranges.push(g.map(|g| g.byte_range).unwrap_or_else(|b| b.byte_range));
                }
            }
            let sequential: Vec<_> = games
                .iter()
                .map(|g| {
                    g.as_ref()
                        .map(|g| g.byte_range.clone())
                        .unwrap_or_else(|b| b.byte_range.clone())
                })
                .collect();
            assert_eq!(ranges, sequential, "{file}: chunked at {target}");
        }
        total += expected;
    }
    assert_eq!(total, 792 + 4000);
}

#[test]
fn writing_and_reading_back_every_real_game_gives_the_same_game() {
    let Some(dir) = test_support::shared_data(module_path!(), ".") else {
        return;
    };
    let mut games = 0;
    for &(file, _) in FILES {
        let bytes = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        for game in read_games(&bytes).flatten() {
            let mut out = Vec::new();
            pgn_parse::PgnWriter::new(&mut out)
                .write_game(&game)
                .unwrap();
            let again = read_games(&out).next().unwrap().unwrap();
            let tags = |g: &pgn_parse::Game<'_>| {
                let mut t: Vec<_> = g
                    .tags
                    .iter()
                    .map(|t| (t.name.to_vec(), t.value().into_owned()))
                    .collect();
                t.sort();
                t
            };
            let tokens = |g: &pgn_parse::Game<'_>| -> Vec<String> {
                g.movetext
                    .iter()
                    .map(|t| match t {
                        pgn_parse::Token::San { text, .. } => {
                            String::from_utf8_lossy(text).into_owned()
                        }
                        pgn_parse::Token::Comment { text, .. } => {
                            String::from_utf8_lossy(text.trim_ascii()).into_owned()
                        }
                        other => format!("{other:?}"),
                    })
                    .collect()
            };
            // The writer adds missing seven-tag-roster tags with their defaults.
            let mut written = tags(&again);
            written.retain(|(name, _)| game.tag(name).is_some());
            assert_eq!(written, tags(&game), "{file} game {}", game.index);
            assert_eq!(tokens(&again), tokens(&game), "{file} game {}", game.index);
            games += 1;
        }
    }
    assert_eq!(games, 4792);
}
