//! Reads an archive on every core, in input order, with each game's moves: prints the SP,
//! the number of plies, the first move in UCI_Chess960 and the final X-FEN of every valid
//! game.
//!
//! `cargo run --release --example parallel -p pgn960 -- fixtures/sample.pgn`

use pgn960::Archive;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: parallel FILE.pgn")?;
    for record in Archive::open(&path)?.with_moves().par_records(0)? {
        let record = record?;
        if let Some(game) = record.valid() {
            let first = game
                .moves
                .first()
                .map_or("-".to_string(), |m| m.uci().to_string());
            let sp = game.sp().map_or("-".to_string(), |sp| sp.to_string());
            println!(
                "{}\t{sp}\t{}\t{first}\t{}",
                record.index + 1,
                game.plies,
                game.final_xfen()
            );
        }
    }
    Ok(())
}
