//! A check of a Parquet file's footer (the compact-Thrift `FileMetaData`) before the
//! parquet crate decodes it. That decoder reserves room for what the footer claims before
//! reading it: a schema element claiming 2^31 children, or a list claiming 2^31 row
//! groups, made it allocate gigabytes and abort on a file of 395 bytes (found by the
//! `parquet_rows` fuzz target). Here every collection must fit in the bytes left, and the
//! schema's children must add up to no more than its elements (a tree of `n` elements has
//! `n - 1` children), so what the decoder reserves is bounded by the footer's size.

use super::compact::{Compact, I32, LIST, STOP, STRUCT};

/// `Err` with what is wrong when the footer of `file` (a whole Parquet file) claims more
/// than it holds; `Ok` when it does not, or when the file has no footer to check (the
/// parquet crate then says what is wrong with it).
pub fn check_footer(file: &[u8]) -> Result<(), String> {
    let Some(footer) = footer_bytes(file) else {
        return Ok(());
    };
    let mut input = Compact::new(footer);
    let unreadable = |at: usize| format!("its footer cannot be read (at byte {at} of it)");
    let mut field = 0i16;
    loop {
        let (id, ty) = input
            .field_header(&mut field)
            .ok_or_else(|| unreadable(input.at()))?;
        match (id, ty) {
            (_, STOP) => return Ok(()),
            (2, LIST) => check_schema(&mut input)?,
            _ => input.skip(ty, 1).ok_or_else(|| unreadable(input.at()))?,
        }
    }
}

/// The footer of `file`: the `len` bytes before its last 8 (`len` as 4 bytes, `PAR1`).
fn footer_bytes(file: &[u8]) -> Option<&[u8]> {
    let end = file.len().checked_sub(8)?;
    let tail = &file[end..];
    if &tail[4..] != b"PAR1" {
        return None;
    }
    let len = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    let start = end.checked_sub(usize::try_from(len).ok()?)?;
    Some(&file[start..end])
}

/// Checks the schema, a list of `SchemaElement` (field 5: `num_children`).
fn check_schema(input: &mut Compact<'_>) -> Result<(), String> {
    let unreadable = |at: usize| format!("its schema cannot be read (at byte {at} of the footer)");
    let (elements, ty) = input.list_header().ok_or_else(|| unreadable(input.at()))?;
    if ty != STRUCT {
        return Err(unreadable(input.at()));
    }
    let mut children = 0u64;
    for index in 0..elements {
        let mut field = 0i16;
        loop {
            match input
                .field_header(&mut field)
                .ok_or_else(|| unreadable(input.at()))?
            {
                (_, STOP) => break,
                (5, I32) => {
                    let claimed = input.int().ok_or_else(|| unreadable(input.at()))?;
                    children = u64::try_from(claimed)
                        .ok()
                        .and_then(|n| children.checked_add(n))
                        .filter(|&total| total < elements)
                        .ok_or_else(|| {
                            format!(
                                "its schema element {index} claims {claimed} children, more \
                                 than the schema's {elements} elements allow"
                            )
                        })?;
                }
                (_, ty) => input.skip(ty, 2).ok_or_else(|| unreadable(input.at()))?,
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parquet::compact::{I64, STRUCT};

    fn varint(mut v: u64, out: &mut Vec<u8>) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(b);
                return;
            }
            out.push(b | 0x80);
        }
    }

    fn zigzag(v: i64) -> u64 {
        ((v << 1) ^ (v >> 63)) as u64
    }

    /// A file: `PAR1`, a footer with a version, a schema of elements with these
    /// `num_children` (`None`: a leaf without the field) and a row-group list claiming
    /// `row_groups` empty groups (only as many bytes as `present` of them), the footer's
    /// length and `PAR1`.
    fn file(children: &[Option<i64>], row_groups: u64, present: u64) -> Vec<u8> {
        let mut footer = vec![(1 << 4) | I32];
        varint(zigzag(1), &mut footer);
        footer.push((1 << 4) | LIST);
        footer.push(0xf0 | STRUCT);
        varint(children.len() as u64, &mut footer);
        for n in children {
            footer.push((4 << 4) | 8); // field 4: the name, a binary
            footer.extend([1, b'x']);
            if let Some(n) = n {
                footer.push((1 << 4) | I32);
                varint(zigzag(*n), &mut footer);
            }
            footer.push(STOP);
        }
        footer.push((1 << 4) | I64);
        varint(zigzag(0), &mut footer);
        footer.push((1 << 4) | LIST);
        footer.push(0xf0 | STRUCT);
        varint(row_groups, &mut footer);
        footer.extend(std::iter::repeat_n(STOP, present as usize));
        footer.push(STOP);
        let mut out = b"PAR1".to_vec();
        out.extend(&footer);
        out.extend((footer.len() as u32).to_le_bytes());
        out.extend(b"PAR1");
        out
    }

    #[test]
    fn a_schema_tree_that_adds_up_passes() {
        assert_eq!(check_footer(&file(&[Some(2), None, Some(0)], 1, 1)), Ok(()));
        let nested = [Some(2), Some(2), None, None, None];
        assert_eq!(check_footer(&file(&nested, 3, 3)), Ok(()));
    }

    #[test]
    fn claims_beyond_the_bytes_or_elements_are_errors() {
        let cases: [(&[Option<i64>], u64, &str); 4] = [
            (
                &[Some(i64::from(i32::MAX)), None],
                1,
                "schema element 0 claims 2147483647",
            ),
            (&[Some(-1), None], 1, "schema element 0 claims -1"),
            (&[Some(2), Some(2), None], 1, "schema element 1 claims 2"),
            (&[Some(1), None], 1 << 31, "footer cannot be read"),
        ];
        for (children, row_groups, says) in cases {
            let error = check_footer(&file(children, row_groups, 1)).unwrap_err();
            assert!(error.contains(says), "{error}");
        }
    }

    #[test]
    fn no_footer_is_left_to_the_parquet_crate() {
        assert_eq!(check_footer(b""), Ok(()));
        assert_eq!(check_footer(b"PAR1"), Ok(()));
        assert_eq!(check_footer(b"PAR1\xff\xff\xff\xffPAR1"), Ok(()));
        assert_eq!(check_footer(b"not parquet at all"), Ok(()));
    }

    #[test]
    fn any_changed_byte_gives_a_verdict_never_a_panic_or_a_hang() {
        let good = file(&[Some(2), Some(1), None, None], 2, 2);
        for at in 4..good.len() - 8 {
            for value in 0..=255u8 {
                let mut bytes = good.clone();
                bytes[at] = value;
                let _ = check_footer(&bytes);
            }
        }
    }
}
