//! Line numbers computed on demand: a cursor that counts line breaks (LF, CRLF and lone CR
//! each count once) with memchr, forward from the last offset asked about and, for a
//! smaller one, back from it, so each byte is counted in proportion to how far the offsets
//! asked about move over it.

/// Counts line breaks in `bytes` (LF, CRLF, lone CR).
pub fn count_line_breaks(bytes: &[u8]) -> u64 {
    let lf = memchr::memchr_iter(b'\n', bytes).count() as u64;
    let lone_cr = memchr::memchr_iter(b'\r', bytes)
        .filter(|&i| bytes.get(i + 1) != Some(&b'\n'))
        .count() as u64;
    lf + lone_cr
}

/// Maps byte offsets of one buffer to 1-based line and column numbers.
#[derive(Debug, Clone)]
pub struct LineIndex {
    base_line: u32,
    at: usize,
    line: u32,
    line_start: usize,
    scanned: u64,
}

impl LineIndex {
    /// An index whose offset 0 is on line `base_line`.
    pub fn new(base_line: u32) -> LineIndex {
        LineIndex {
            base_line,
            at: 0,
            line: base_line,
            line_start: 0,
            scanned: 0,
        }
    }

    /// Bytes scanned so far: each byte of the buffer once while offsets increase, and the
    /// bytes stepped back over (and back to the start of the line) for a smaller offset.
    pub fn bytes_scanned(&self) -> u64 {
        self.scanned
    }

    /// The offset counted up to (the last one asked about) and the line breaks before it
    /// (`None` if the line number overflowed): the breaks of the whole buffer are these
    /// and those of the bytes from the offset on ([`count_line_breaks`]).
    pub fn reached(&self) -> Option<(usize, u64)> {
        let breaks = self.line.checked_sub(self.base_line)?;
        (self.line < u32::MAX).then_some((self.at, u64::from(breaks)))
    }

    /// The 1-based (line, column) of `offset` in `input`. Fastest for increasing offsets;
    /// a smaller offset steps back from the last one (a reader that looked ahead to an
    /// error and then names the next game's start costs the look-ahead, not the buffer).
    pub fn locate(&mut self, input: &[u8], offset: usize) -> (u32, u32) {
        let offset = offset.min(input.len());
        if offset < self.at {
            self.step_back(input, offset);
        }
        let segment = &input[self.at..offset];
        self.scanned += segment.len() as u64;
        for i in memchr::memchr2_iter(b'\n', b'\r', segment) {
            let abs = self.at + i;
            if is_break(input, abs) {
                self.line = self.line.saturating_add(1);
                self.line_start = abs + 1;
            }
        }
        self.at = offset;
        (self.line, (offset - self.line_start) as u32 + 1)
    }

    /// Moves the cursor back to `offset` (below `self.at`): uncounts the breaks between
    /// them and finds the start of `offset`'s line.
    fn step_back(&mut self, input: &[u8], offset: usize) {
        if offset >= self.line_start {
            self.at = offset;
            return;
        }
        let segment = &input[offset..self.at];
        let breaks = memchr::memchr2_iter(b'\n', b'\r', segment)
            .filter(|&i| is_break(input, offset + i))
            .count();
        self.line = self.line.saturating_sub(breaks as u32).max(self.base_line);
        let before = &input[..offset];
        let mut line_start = 0;
        for i in memchr::memrchr2_iter(b'\n', b'\r', before) {
            if is_break(input, i) {
                line_start = i + 1;
                break;
            }
        }
        self.scanned += (self.at - line_start) as u64;
        self.line_start = line_start;
        self.at = offset;
    }
}

/// Whether the byte at `at` ends a line: an LF, or a CR not followed by an LF (a CRLF is
/// counted at its LF).
fn is_break(input: &[u8], at: usize) -> bool {
    match input[at] {
        b'\n' => true,
        b'\r' => input.get(at + 1) != Some(&b'\n'),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_line_break_styles() {
        let text = b"a\nb\r\nc\rd";
        assert_eq!(count_line_breaks(text), 3);
        let mut idx = LineIndex::new(1);
        assert_eq!(idx.locate(text, 0), (1, 1));
        assert_eq!(idx.locate(text, 2), (2, 1));
        assert_eq!(idx.locate(text, 5), (3, 1));
        assert_eq!(idx.locate(text, 7), (4, 1));
        assert_eq!(idx.locate(text, 1), (1, 2));
    }

    #[test]
    fn stepping_back_gives_what_a_fresh_index_gives() {
        let text = b"ab\ncd\r\nef\rgh\n\nij\r\r\nk";
        let fresh = |offset| LineIndex::new(7).locate(text, offset);
        let mut idx = LineIndex::new(7);
        // Every pair of offsets, the second smaller, larger or equal.
        for a in 0..=text.len() {
            for b in 0..=text.len() {
                assert_eq!(idx.locate(text, a), fresh(a), "{a}");
                assert_eq!(idx.locate(text, b), fresh(b), "{a} then {b}");
            }
        }
    }

    #[test]
    fn stepping_back_scans_what_it_steps_over_not_the_buffer() {
        let text = b"x\n".repeat(10_000);
        let mut idx = LineIndex::new(1);
        for game in 0..1_000 {
            // Look ahead 10 bytes to an error, then name the game's start.
            idx.locate(&text, game * 20 + 10);
            idx.locate(&text, game * 20);
        }
        assert!(idx.bytes_scanned() < 40_000, "{}", idx.bytes_scanned());
    }
}
