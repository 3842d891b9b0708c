//! `Position::san_written` (the canonical SAN from the text a move was read from) against
//! `Position::san` (the search for other pieces), on every legal move of positions along
//! random playouts and of positions made for ambiguities and pins.

use super::Rng;
use chess960_core::{Move, Position, Role, San};

/// Every way of writing `m`'s SAN with or without its origin file and rank (and, for a
/// pawn capture or a move written without `x`, the capture mark dropped), as text, with
/// `:` for `x`, and with marks after it.
fn written_forms(pos: &Position, m: Move) -> Vec<String> {
    let mut texts = Vec::new();
    for san in written_sans(pos, m) {
        let text = san.to_string();
        texts.push(text.replace('x', ":"));
        texts.push(format!("{text}+"));
        texts.push(format!("{text}#!?"));
        texts.push(text);
    }
    texts
}

fn written_sans(pos: &Position, m: Move) -> Vec<San> {
    let mut forms = vec![pos.san(m)];
    let (from, to) = (m.from(), m.to());
    if let Move::Normal {
        role,
        capture,
        promotion,
        ..
    } = m
    {
        for (file, rank) in [
            (None, None),
            (Some(from.file()), None),
            (None, Some(from.rank())),
            (Some(from.file()), Some(from.rank())),
        ] {
            for capture in [capture.is_some(), false] {
                forms.push(San::Normal {
                    role,
                    file,
                    rank,
                    capture,
                    to,
                    promotion,
                });
            }
        }
    }
    forms
}

/// Checks every legal move of `pos` written every way that resolves to it; counts the
/// moves whose canonical SAN needs an origin.
fn check_position(pos: &Position, disambiguated: &mut u64, resolved: &mut u64) {
    for &m in pos.legal_moves().iter() {
        let canonical = pos.san(m);
        if let San::Normal {
            file, rank, role, ..
        } = canonical
        {
            if role != Role::Pawn && (file.is_some() || rank.is_some()) {
                *disambiguated += 1;
            }
        }
        for written in written_forms(pos, m) {
            if pos.parse_san(&written) == Ok(m) {
                *resolved += 1;
                assert_eq!(
                    pos.san_written(m, written.as_bytes()),
                    canonical,
                    "{pos}: {written} for {m:?}"
                );
            }
        }
    }
}

#[test]
fn san_written_is_the_canonical_san() {
    let (mut disambiguated, mut resolved) = (0u64, 0u64);
    // Ambiguities, pins (the d2 knight pinned by b4), checks and promotions.
    for fen in [
        "4k3/8/8/8/8/8/4K3/R6R w - - 0 1",
        "4k3/8/8/8/1b6/8/3N1N2/4K3 w - - 0 1",
        "4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1",
        "1n2k1n1/8/2N3N1/8/2N3N1/8/8/4K3 w - - 0 1",
        "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1",
        "4k3/8/4r3/8/2N1N3/8/4K3/8 w - - 0 1",
        "3qk3/8/8/Q7/8/8/8/Q3K2Q w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        check_position(&pos, &mut disambiguated, &mut resolved);
    }
    let mut rng = Rng(0x5eed_5a11_0f9c_2d47);
    for _ in 0..300 {
        let sp = rng.below(960) as u16;
        let Ok(mut pos) = Position::from_sp(sp) else {
            panic!("SP {sp}");
        };
        for _ in 0..120 {
            check_position(&pos, &mut disambiguated, &mut resolved);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Captures and promotions preferred half the time (more pieces of a role meet).
            let pick = |rng: &mut Rng| moves[rng.below(moves.len())];
            let mut m = pick(&mut rng);
            if rng.below(2) == 0 {
                for _ in 0..8 {
                    let other = pick(&mut rng);
                    if other.promotion().is_some() || other.is_capture() {
                        m = other;
                        break;
                    }
                }
            }
            pos.play_unchecked(m);
        }
    }
    eprintln!("{resolved} written forms resolved, {disambiguated} canonical SANs with an origin");
    assert!(disambiguated > 500, "{disambiguated}");
}
