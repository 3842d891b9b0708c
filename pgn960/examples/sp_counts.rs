//! Counts valid Chess960 games per start position (SP 0..959) with white's score, the
//! table `pgn960 stats` makes, in a dozen lines.
//!
//! `cargo run --example sp_counts -p pgn960 -- fixtures/sample.pgn`

use pgn960::Archive;
use pgn_parse::GameResult;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: sp_counts FILE.pgn")?;
    // (games, white's points) per SP.
    let mut table = vec![(0u64, 0.0f64); 960];
    for record in Archive::open(&path)?.records() {
        let record = record?;
        let Some(game) = record.valid().filter(|g| g.is_chess960()) else {
            continue;
        };
        let (Some(sp), None) = (game.sp(), game.black_sp()) else {
            continue;
        };
        let points = match game.result {
            GameResult::WhiteWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
            GameResult::Unknown => continue,
        };
        let row = &mut table[usize::from(sp)];
        row.0 += 1;
        row.1 += points;
    }
    println!("sp,games,white_score");
    for (sp, (games, points)) in table.iter().enumerate().filter(|(_, r)| r.0 > 0) {
        println!("{sp},{games},{:.3}", points / *games as f64);
    }
    Ok(())
}
