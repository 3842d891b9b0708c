//! Line numbers computed on demand: a monotonic cursor that counts line breaks (LF, CRLF
//! and lone CR each count once) with memchr, so only the bytes before the furthest offset
//! asked about are ever counted.

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

    /// Bytes scanned so far: each byte of the buffer once while offsets increase (a
    /// smaller offset than the last starts again from the buffer's start).
    pub fn bytes_scanned(&self) -> u64 {
        self.scanned
    }

    /// The 1-based (line, column) of `offset` in `input`. Fastest for increasing offsets.
    pub fn locate(&mut self, input: &[u8], offset: usize) -> (u32, u32) {
        let offset = offset.min(input.len());
        if offset < self.at {
            *self = LineIndex {
                scanned: self.scanned,
                ..LineIndex::new(self.base_line)
            };
        }
        let segment = &input[self.at..offset];
        self.scanned += segment.len() as u64;
        for i in memchr::memchr2_iter(b'\n', b'\r', segment) {
            let abs = self.at + i;
            // A CR followed by LF is counted at the LF.
            if segment[i] == b'\r' && input.get(abs + 1) == Some(&b'\n') {
                continue;
            }
            self.line = self.line.saturating_add(1);
            self.line_start = abs + 1;
        }
        self.at = offset;
        (self.line, (offset - self.line_start) as u32 + 1)
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
}
