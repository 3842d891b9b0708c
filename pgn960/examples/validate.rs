//! Validates every game of a PGN file (plain, .zst, .gz, .bz2, or - for stdin) and prints
//! each invalid one with its reason and where, like `pgn960 check`.
//!
//! `cargo run --example validate -p pgn960 -- fixtures/sample.pgn`

use pgn960::{Archive, Verdict};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: validate FILE.pgn")?;
    let archive = if path == "-" {
        Archive::stdin()?
    } else {
        Archive::open(&path)?
    };
    let (mut valid, mut invalid) = (0, 0);
    for record in archive.records() {
        let record = record?;
        match &record.verdict {
            Verdict::Valid(_) => valid += 1,
            Verdict::Unsupported(variant) => {
                println!("game {}: {variant}, not checked", record.index + 1)
            }
            Verdict::Invalid(rejection) => {
                invalid += 1;
                let (line, column) = record.problem_at.unwrap_or((record.line, 1));
                println!(
                    "{}:{line}:{column}: game {}: {} ({})",
                    record.source,
                    record.index + 1,
                    rejection.detail,
                    rejection.reason
                );
            }
        }
    }
    println!("{valid} valid, {invalid} invalid");
    Ok(())
}
