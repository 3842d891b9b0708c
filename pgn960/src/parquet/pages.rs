//! The page headers of a column chunk, read before the decoder: the parquet crate
//! decompresses a data page whole, and a page's size is the writer's choice (up to 2 GiB),
//! so the rows of a page too large to decode are found, and skipped, from its header.
//!
//! A header is a Thrift struct in the compact protocol (the Parquet format's
//! `PageHeader`): field 1 the page type, 2 its uncompressed size, 3 its compressed size,
//! 5 a v1 data page's header (field 1: its values), 7 a dictionary page's, 8 a v2 data
//! page's (field 3: its rows). Only those fields are read; the others are skipped by type.

use super::compact::{Compact, I32, STOP, STRUCT};
use std::ops::Range;

/// The kind of a page (the format's `PageType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageKind {
    /// A data page (v1 or v2).
    Data,
    /// A dictionary page: read before any row of the chunk.
    Dictionary,
    /// An index page or a kind this reader does not know: holds no rows.
    Other,
}

/// What a page header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageHeader {
    /// The page's kind.
    pub kind: PageKind,
    /// Bytes of the page once decompressed (what decoding it holds in memory).
    pub uncompressed: u64,
    /// Bytes of the page in the file, after its header.
    pub compressed: u64,
    /// Rows of a data page of a flat column (its values, nulls included); 0 otherwise.
    pub rows: u64,
    /// Bytes of the header itself.
    pub header_len: usize,
}

/// The rows (counted within the column chunk) of each data page of `chunk` (the chunk's
/// bytes, from its first page) whose uncompressed size is over `bound`, in order; an error
/// for a dictionary page over `bound` (it is read before any row, so it cannot be skipped)
/// or a header that cannot be read.
pub fn rows_in_pages_over(chunk: &[u8], bound: u64) -> Result<Vec<Range<u64>>, String> {
    let mut over = Vec::new();
    let mut at = 0usize;
    let mut row = 0u64;
    while at < chunk.len() {
        let header = read_header(&chunk[at..]).ok_or_else(|| {
            format!("a page header at byte {at} of the column chunk cannot be read")
        })?;
        if header.uncompressed > bound {
            match header.kind {
                PageKind::Dictionary => {
                    return Err(format!(
                        "its dictionary page holds {} bytes decompressed, over the {} a page may \
                         hold",
                        header.uncompressed, bound
                    ))
                }
                PageKind::Data => over.push(row..row + header.rows),
                PageKind::Other => {}
            }
        }
        row += header.rows;
        let next = u64::try_from(at)
            .ok()
            .and_then(|at| at.checked_add(header.header_len as u64))
            .and_then(|at| at.checked_add(header.compressed))
            .and_then(|at| usize::try_from(at).ok());
        match next {
            Some(next) if next > at => at = next,
            _ => {
                return Err(format!(
                    "a page at byte {at} of the column chunk has no length"
                ))
            }
        }
    }
    Ok(over)
}

/// The header at the start of `bytes`, or `None` if it is not a readable one.
pub fn read_header(bytes: &[u8]) -> Option<PageHeader> {
    let mut input = Compact::new(bytes);
    let (mut kind, mut uncompressed, mut compressed, mut rows) = (None, None, None, 0);
    let mut field = 0i16;
    loop {
        let (id, ty) = input.field_header(&mut field)?;
        match (id, ty) {
            (_, STOP) => break,
            (1, I32) => {
                kind = Some(match input.int()? {
                    0 | 3 => PageKind::Data,
                    2 => PageKind::Dictionary,
                    _ => PageKind::Other,
                })
            }
            (2, I32) => uncompressed = u64::try_from(input.int()?).ok(),
            (3, I32) => compressed = u64::try_from(input.int()?).ok(),
            (5, STRUCT) => rows = input.struct_field(1)?,
            (8, STRUCT) => rows = input.struct_field(3)?,
            _ => input.skip(ty, 0)?,
        }
    }
    let kind = kind?;
    Some(PageHeader {
        kind,
        uncompressed: uncompressed?,
        compressed: compressed?,
        rows: if kind == PageKind::Data { rows } else { 0 },
        header_len: input.at(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::compact::BINARY;
    use super::*;

    /// A compact-protocol header: type, sizes, a v1 data page header of `values` values,
    /// and a statistics-like binary field the reader must skip.
    fn header(kind: i64, uncompressed: i64, compressed: i64, values: i64) -> Vec<u8> {
        let zigzag = |v: i64| ((v << 1) ^ (v >> 63)) as u64;
        let varint = |mut v: u64, out: &mut Vec<u8>| loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(b);
                break;
            }
            out.push(b | 0x80);
        };
        let mut out = Vec::new();
        for (delta, v) in [(1, kind), (1, uncompressed), (1, compressed)] {
            out.push((delta << 4) | I32);
            varint(zigzag(v), &mut out);
        }
        out.push((2 << 4) | STRUCT); // field 5: the data page header
        out.push((1 << 4) | I32);
        varint(zigzag(values), &mut out);
        out.push((1 << 4) | I32); // encoding
        varint(zigzag(0), &mut out);
        out.push((3 << 4) | STRUCT); // field 5 of it: statistics, with a binary max
        out.push((1 << 4) | BINARY);
        varint(3, &mut out);
        out.extend_from_slice(b"abc");
        out.push(STOP);
        out.push(STOP);
        out.push(STOP);
        out
    }

    #[test]
    fn a_data_page_header_gives_its_sizes_and_rows() {
        let bytes = header(0, 1000, 300, 7);
        let read = read_header(&bytes).unwrap();
        assert_eq!(
            read,
            PageHeader {
                kind: PageKind::Data,
                uncompressed: 1000,
                compressed: 300,
                rows: 7,
                header_len: bytes.len(),
            }
        );
        assert_eq!(read_header(&bytes[..bytes.len() - 1]), None, "cut short");
    }

    #[test]
    fn any_bytes_give_a_header_or_none_never_a_panic() {
        // Every byte of a real header set to every value, then random bytes of each length.
        let good = header(0, 1000, 300, 7);
        for at in 0..good.len() {
            for value in 0..=255u8 {
                let mut bytes = good.clone();
                bytes[at] = value;
                let _ = read_header(&bytes);
                let _ = rows_in_pages_over(&bytes, 10);
            }
        }
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for len in 0..96 {
            for _ in 0..500 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        state as u8
                    })
                    .collect();
                let _ = read_header(&bytes);
                let _ = rows_in_pages_over(&bytes, 10);
            }
        }
    }

    #[test]
    fn the_rows_of_the_pages_over_a_bound_are_found_in_order() {
        let mut chunk = Vec::new();
        for (size, rows) in [(10, 4u64), (5000, 3), (20, 5), (9000, 2)] {
            chunk.extend(header(0, size, 2, rows as i64));
            chunk.extend([0u8; 2]);
        }
        assert_eq!(rows_in_pages_over(&chunk, 100), Ok(vec![4..7, 12..14]));
        assert_eq!(rows_in_pages_over(&chunk, 10_000), Ok(vec![]));
        let mut dictionary = header(2, 5000, 1, 0);
        dictionary.push(0);
        assert!(rows_in_pages_over(&dictionary, 100).is_err());
        assert!(rows_in_pages_over(&[0xff; 4], 100).is_err(), "not a header");
    }
}
