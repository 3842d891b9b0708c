//! Structure-aware property test: legal games (random playouts with chess960-core) written
//! as PGN, then damaged (a move replaced, a character deleted, a tag broken, a brace
//! dropped, the text cut at a random byte). Reading, validating and writing never panics,
//! and every game read is kept, passed through or rejected.

#[allow(unused_imports)]
use crate::util::*;

use chess960_core::{Move, Position};
use pgn960_cli::archive::chunk::process_chunk_counts;
use pgn960_cli::archive::ArchiveOptions;
use proptest::prelude::*;

fn legal_game(seed: u64, plies: usize) -> String {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let sp = (next() % 960) as u16;
    let mut pos = Position::from_sp(sp).expect("valid SP");
    let mut text = format!(
        "[Event \"g{seed}\"]\n[Site \"?\"]\n[Variant \"Chess960\"]\n[FEN \"{}\"]\n[Result \"*\"]\n\n",
        pos
    );
    for ply in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m: Move = moves[(next() % moves.len() as u64) as usize];
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(&pos.san_plus(m).to_string());
        text.push(' ');
        if next() % 4 == 0 {
            text.push_str("{ [%clk 0:01:00] } ");
        }
        pos.play_unchecked(m);
    }
    text.push_str("*\n\n");
    text
}

#[derive(Debug, Clone)]
enum Mutation {
    ReplaceMove(usize),
    DeleteChar(usize),
    BreakTag(usize),
    DropBrace(usize),
    Cut(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::ReplaceMove),
        any::<usize>().prop_map(Mutation::DeleteChar),
        any::<usize>().prop_map(Mutation::BreakTag),
        any::<usize>().prop_map(Mutation::DropBrace),
        any::<usize>().prop_map(Mutation::Cut),
    ]
}

fn apply(text: &mut Vec<u8>, m: &Mutation) {
    if text.is_empty() {
        return;
    }
    let nth = |text: &Vec<u8>, byte: u8, k: usize| {
        let hits: Vec<usize> = text
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == byte)
            .map(|(i, _)| i)
            .collect();
        (!hits.is_empty()).then(|| hits[k % hits.len()])
    };
    match *m {
        Mutation::ReplaceMove(k) => {
            if let Some(i) = nth(text, b'.', k) {
                let end = (i + 4).min(text.len());
                text.splice(i + 1..end, b" Qxz9".iter().copied());
            }
        }
        Mutation::DeleteChar(k) => {
            let i = k % text.len();
            text.remove(i);
        }
        Mutation::BreakTag(k) => {
            if let Some(i) = nth(text, b'"', k) {
                text.remove(i);
            }
        }
        Mutation::DropBrace(k) => {
            if let Some(i) = nth(text, b'}', k) {
                text.remove(i);
            }
        }
        Mutation::Cut(k) => {
            let i = k % text.len();
            text.truncate(i);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn damaged_archives_never_panic_and_counts_add_up(
        seeds in prop::collection::vec((any::<u64>(), 0usize..80), 1..6),
        mutations in prop::collection::vec(mutation(), 0..4),
    ) {
        let mut text: Vec<u8> = seeds.iter().map(|&(s, p)| legal_game(s, p)).collect::<String>().into_bytes();
        let clean = text.clone();
        let opts = ArchiveOptions { write: true, ..ArchiveOptions::default() };
        let (games, kept, unsupported, rejected) = process_chunk_counts(&clean, &opts);
        prop_assert_eq!((games, kept, rejected), (seeds.len() as u64, seeds.len() as u64, 0));
        for m in &mutations {
            apply(&mut text, m);
        }
        let (games, kept, unsupported2, rejected) = process_chunk_counts(&text, &opts);
        prop_assert_eq!(games, kept + unsupported2 + rejected);
        prop_assert_eq!(unsupported, 0);
    }
}
