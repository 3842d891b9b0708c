//! A reader of the Thrift compact protocol, the encoding of Parquet's metadata (its
//! footer and its page headers), over a byte slice: integers, field headers, and a skip of
//! any value by its type, with a depth cap and no allocation.

pub(super) const STOP: u8 = 0;
pub(super) const TRUE: u8 = 1;
pub(super) const FALSE: u8 = 2;
pub(super) const BYTE: u8 = 3;
pub(super) const I16: u8 = 4;
pub(super) const I32: u8 = 5;
pub(super) const I64: u8 = 6;
pub(super) const DOUBLE: u8 = 7;
pub(super) const BINARY: u8 = 8;
pub(super) const LIST: u8 = 9;
pub(super) const SET: u8 = 10;
pub(super) const MAP: u8 = 11;
pub(super) const STRUCT: u8 = 12;

/// Nesting deeper than this is not Parquet metadata (and would only cost stack).
const MAX_DEPTH: u32 = 16;

/// A reader of the Thrift compact protocol over a byte slice.
pub(super) struct Compact<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Compact<'b> {
    /// A reader at the start of `bytes`.
    pub(super) fn new(bytes: &'b [u8]) -> Compact<'b> {
        Compact { bytes, at: 0 }
    }

    /// The bytes read so far.
    pub(super) fn at(&self) -> usize {
        self.at
    }

    /// The bytes not yet read.
    fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    pub(super) fn varint(&mut self) -> Option<u64> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    /// A zigzag-encoded integer.
    pub(super) fn int(&mut self) -> Option<i64> {
        let v = self.varint()?;
        Some((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    /// The next field's id and type; `last` is the id before it (ids may be deltas).
    pub(super) fn field_header(&mut self, last: &mut i16) -> Option<(i16, u8)> {
        let b = self.byte()?;
        let ty = b & 0x0f;
        if ty == STOP {
            return Some((0, STOP));
        }
        let delta = i16::from(b >> 4);
        *last = if delta == 0 {
            i16::try_from(self.int()?).ok()?
        } else {
            last.checked_add(delta)?
        };
        Some((*last, ty))
    }

    /// The i32 field `wanted` of the struct that starts here (0 when absent); the rest of
    /// the struct skipped.
    pub(super) fn struct_field(&mut self, wanted: i16) -> Option<u64> {
        let mut found = 0;
        let mut field = 0i16;
        loop {
            match self.field_header(&mut field)? {
                (_, STOP) => return Some(found),
                (id, I32) if id == wanted => found = u64::try_from(self.int()?).ok()?,
                (_, ty) => self.skip(ty, 1)?,
            }
        }
    }

    /// Skips a value of type `ty`, `depth` structures deep.
    pub(super) fn skip(&mut self, ty: u8, depth: u32) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match ty {
            TRUE | FALSE => {}
            BYTE => {
                self.byte()?;
            }
            I16 | I32 | I64 => {
                self.varint()?;
            }
            DOUBLE => self.advance(8)?,
            BINARY => {
                let len = usize::try_from(self.varint()?).ok()?;
                self.advance(len)?;
            }
            LIST | SET => {
                let (size, element) = self.list_header()?;
                for _ in 0..size {
                    self.skip_element(element, depth + 1)?;
                }
            }
            MAP => {
                let size = self.varint()?;
                self.claims_at_most_left(size)?;
                if size > 0 {
                    let types = self.byte()?;
                    for _ in 0..size {
                        self.skip_element(types >> 4, depth + 1)?;
                        self.skip_element(types & 0x0f, depth + 1)?;
                    }
                }
            }
            STRUCT => {
                let mut field = 0i16;
                loop {
                    match self.field_header(&mut field)? {
                        (_, STOP) => break,
                        (_, inner) => self.skip(inner, depth + 1)?,
                    }
                }
            }
            _ => return None,
        }
        Some(())
    }

    /// Skips an element of a list, set or map: a boolean there is a byte of its own (a
    /// field's boolean is in its header), so every element takes at least one byte and a
    /// collection's claimed size cannot make the reader loop without reading.
    pub(super) fn skip_element(&mut self, ty: u8, depth: u32) -> Option<()> {
        if matches!(ty, TRUE | FALSE) {
            self.byte().map(|_| ())
        } else {
            self.skip(ty, depth)
        }
    }

    /// A list's (or set's) size and element type; `None` when it claims more elements
    /// than there are bytes left.
    pub(super) fn list_header(&mut self) -> Option<(u64, u8)> {
        let head = self.byte()?;
        let size = match head >> 4 {
            15 => self.varint()?,
            n => u64::from(n),
        };
        self.claims_at_most_left(size)?;
        Some((size, head & 0x0f))
    }

    /// `None` when a collection claims more elements than there are bytes left: each
    /// element takes at least one, and a decoder reserving room for the claim would
    /// allocate what the input does not hold.
    fn claims_at_most_left(&self, size: u64) -> Option<()> {
        (size <= self.remaining() as u64).then_some(())
    }

    pub(super) fn advance(&mut self, n: usize) -> Option<()> {
        let end = self.at.checked_add(n)?;
        (end <= self.bytes.len()).then(|| self.at = end)
    }
}
