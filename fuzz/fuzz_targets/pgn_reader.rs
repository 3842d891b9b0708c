//! The PGN reader on arbitrary bytes: no panic, no hang, byte ranges inside the input and
//! in order, chunked and streamed reading equal to sequential reading, skipped movetext
//! ending every game where read movetext does, and the writer's output readable.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn_parse::{
    read_games, read_games_at, split_at_game_boundaries, GameEnd, PgnWriter, Reader, Skip,
    StreamReader, Visitor,
};

/// Every game's end, with the movetext read or skipped.
fn game_ends(data: &[u8], skip: bool) -> Vec<GameEnd> {
    struct Ends(bool);
    impl<'a> Visitor<'a> for Ends {
        type Output = GameEnd;
        fn end_tags(&mut self) -> Skip {
            Skip(self.0)
        }
        fn end_game(&mut self, end: GameEnd) -> GameEnd {
            end
        }
    }
    let mut reader = Reader::new(data);
    let mut ends = Vec::new();
    while let Some(end) = reader.read_game(&mut Ends(skip)) {
        ends.push(end);
    }
    ends
}

fuzz_target!(|data: &[u8]| {
    let mut last_end = 0;
    let mut sequential = Vec::new();
    for game in read_games(data) {
        let range = match &game {
            Ok(g) => g.byte_range.clone(),
            Err(b) => b.byte_range.clone(),
        };
        assert!(range.start <= range.end && range.end <= data.len());
        assert!(range.start >= last_end);
        last_end = range.end;
        sequential.push(range);
        if let Ok(g) = game {
            let mut out = Vec::new();
            PgnWriter::new(&mut out).write_game(&g).unwrap();
            assert_eq!(read_games(&out).count(), 1);
        }
    }
    let target = 1 + data.first().copied().unwrap_or(0) as usize * 4;
    let chunked: Vec<_> = split_at_game_boundaries(data, target)
        .iter()
        .flat_map(|c| {
            read_games_at(&data[c.range.clone()], c.origin())
                .map(|g| match g {
                    Ok(g) => g.byte_range,
                    Err(b) => b.byte_range,
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(chunked, sequential);
    // Blocks of a stream (cut at boundaries, or after results for tag-less games) too.
    let mut stream = StreamReader::with_block_size(data, target.max(64));
    let mut streamed = Vec::new();
    while let Ok(Some(block)) = stream.next_block() {
        streamed.extend(read_games_at(&block.data, block.origin()).map(|g| match g {
            Ok(g) => g.byte_range,
            Err(b) => b.byte_range,
        }));
    }
    assert_eq!(streamed, sequential);
    assert_eq!(game_ends(data, true), game_ends(data, false));
});
