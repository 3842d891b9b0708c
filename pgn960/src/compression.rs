//! The compressed formats: the one table that detection, decoding, encoding, the
//! directory walk, messages and help text read. Adding a format is one entry here.

use std::io::{self, BufReader, Read, Write};
use std::path::Path;

/// A compression the inputs and outputs may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Plain text.
    None,
    /// Zstandard (`.zst`; lichess database dumps).
    Zstd,
    /// gzip (`.gz`; several members are read one after the other).
    Gzip,
    /// bzip2 (`.bz2`; several streams are read one after the other).
    Bzip2,
    /// xz (`.xz`; older archives; several streams are read one after the other).
    Xz,
}

/// A byte stream as the pipeline reads it.
pub type ByteStream = Box<dyn Read + Send>;

/// A writer that must be finished (a compressor writes its trailer) before its bytes are
/// complete.
pub trait FinishWrite: Write + Send {
    /// Writes what is left (a compressed stream's trailer) and flushes.
    fn finish(self: Box<Self>) -> io::Result<()>;
}

/// A byte sink as outputs write it.
pub type ByteSink = Box<dyn Write + Send>;

/// One compressed format: how it is named, recognised, decoded and encoded.
pub struct CompressionFormat {
    /// The compression.
    pub compression: Compression,
    /// Its name in messages (`zstd`).
    pub name: &'static str,
    /// The file name extension, without the dot (`zst`).
    pub extension: &'static str,
    /// Whether the first bytes of an input are this format's magic number.
    pub matches: fn(&[u8]) -> bool,
    /// A decoder reading from the raw bytes.
    pub decoder: fn(ByteStream) -> io::Result<ByteStream>,
    /// An encoder writing to the raw bytes.
    pub encoder: fn(ByteSink) -> io::Result<Box<dyn FinishWrite>>,
}

/// The compressed formats.
pub const COMPRESSIONS: &[CompressionFormat] = &[
    CompressionFormat {
        compression: Compression::Zstd,
        name: "zstd",
        extension: "zst",
        matches: |head| head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]),
        decoder: |raw| {
            let mut decoder = zstd::stream::read::Decoder::new(raw)?;
            // Frames written with `zstd --long=31` need a 2 GiB window.
            decoder.window_log_max(31)?;
            Ok(Box::new(decoder))
        },
        encoder: |raw| Ok(Box::new(Zstd(zstd::stream::write::Encoder::new(raw, 3)?))),
    },
    CompressionFormat {
        compression: Compression::Gzip,
        name: "gzip",
        extension: "gz",
        matches: |head| head.starts_with(&[0x1f, 0x8b]),
        decoder: |raw| {
            Ok(Box::new(flate2::read::MultiGzDecoder::new(BufReader::new(
                raw,
            ))))
        },
        encoder: |raw| {
            Ok(Box::new(Gzip(flate2::write::GzEncoder::new(
                raw,
                flate2::Compression::default(),
            ))))
        },
    },
    CompressionFormat {
        compression: Compression::Bzip2,
        name: "bzip2",
        extension: "bz2",
        matches: |head| head.starts_with(b"BZh") && head.get(3).is_some_and(u8::is_ascii_digit),
        decoder: |raw| {
            Ok(Box::new(bzip2::read::MultiBzDecoder::new(BufReader::new(
                raw,
            ))))
        },
        encoder: |raw| {
            Ok(Box::new(Bzip2(bzip2::write::BzEncoder::new(
                raw,
                bzip2::Compression::new(6),
            ))))
        },
    },
    CompressionFormat {
        compression: Compression::Xz,
        name: "xz",
        extension: "xz",
        matches: |head| head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]),
        decoder: |raw| {
            Ok(Box::new(liblzma::read::XzDecoder::new_multi_decoder(
                BufReader::new(raw),
            )))
        },
        encoder: |raw| Ok(Box::new(Xz(liblzma::write::XzEncoder::new(raw, 6)))),
    },
];

/// The bytes [`detect_compression`] looks at.
pub const MAGIC_LEN: usize = 6;

/// The format entry of `compression` (`None` for plain text).
pub fn format_of(compression: Compression) -> Option<&'static CompressionFormat> {
    COMPRESSIONS.iter().find(|c| c.compression == compression)
}

/// The compression a file name's extension names (`games.pgn.zst`: zstd).
pub fn compression_of_name(path: &Path) -> Compression {
    let extension = path.extension().and_then(|e| e.to_str());
    COMPRESSIONS
        .iter()
        .find(|c| extension.is_some_and(|e| e.eq_ignore_ascii_case(c.extension)))
        .map_or(Compression::None, |c| c.compression)
}

/// Recognises a compression by magic bytes. An empty file named for a compression is that
/// compression, so that it is reported as not a valid compressed file.
pub fn detect_compression(path: &Path, head: &[u8]) -> Compression {
    if let Some(format) = COMPRESSIONS.iter().find(|c| (c.matches)(head)) {
        return format.compression;
    }
    if head.is_empty() {
        return compression_of_name(path);
    }
    Compression::None
}

/// The names of the formats, for messages: `zstd, gzip, bzip2 and xz`.
pub fn format_names() -> String {
    let names: Vec<&str> = COMPRESSIONS.iter().map(|c| c.name).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// The file name patterns of PGN inputs, for messages: `*.pgn, *.pgn.zst, ...`.
pub fn pgn_patterns() -> String {
    std::iter::once("*.pgn".to_string())
        .chain(
            COMPRESSIONS
                .iter()
                .map(|c| format!("*.pgn.{}", c.extension)),
        )
        .chain(cfg!(feature = "parquet").then(|| "*.parquet".to_string()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether a directory entry is a file of games to read (`.pgn`, or `.pgn` and a
/// compression's extension, or `.parquet`), ignoring case.
pub fn is_pgn_file(path: &Path) -> bool {
    let Some(name) = path.file_name() else {
        return false;
    };
    let lower = name.to_string_lossy().to_ascii_lowercase();
    (cfg!(feature = "parquet") && lower.ends_with(".parquet"))
        || lower.ends_with(".pgn")
        || COMPRESSIONS
            .iter()
            .any(|c| lower.ends_with(&format!(".pgn.{}", c.extension)))
}

/// An encoder for `compression` over `raw` (plain text: `raw` itself, flushed on finish).
pub fn encoder(compression: Compression, raw: ByteSink) -> io::Result<Box<dyn FinishWrite>> {
    match format_of(compression) {
        Some(format) => (format.encoder)(raw),
        None => Ok(Box::new(Plain(raw))),
    }
}

/// Declares a writer wrapper whose `finish` runs `$finish` on the inner encoder.
macro_rules! finishing_writer {
    ($name:ident, $inner:ty, |$e:ident| $finish:expr) => {
        struct $name($inner);

        impl Write for $name {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                self.0.write(buf)
            }
            fn flush(&mut self) -> io::Result<()> {
                self.0.flush()
            }
        }

        impl FinishWrite for $name {
            fn finish(self: Box<Self>) -> io::Result<()> {
                let $e = self.0;
                $finish
            }
        }
    };
}

finishing_writer!(Plain, ByteSink, |w| {
    let mut w = w;
    w.flush()
});
finishing_writer!(Zstd, zstd::stream::write::Encoder<'static, ByteSink>, |e| e
    .finish()?
    .flush());
finishing_writer!(Gzip, flate2::write::GzEncoder<ByteSink>, |e| e
    .finish()?
    .flush());
finishing_writer!(Bzip2, bzip2::write::BzEncoder<ByteSink>, |e| e
    .finish()?
    .flush());
finishing_writer!(Xz, liblzma::write::XzEncoder<ByteSink>, |e| e
    .finish()?
    .flush());

/// What an input is when its first bytes are an archive or a compression pgn960 does not
/// read (7z, zip, lz4): such an input is refused before reading.
pub fn unsupported_format(head: &[u8]) -> Option<String> {
    let what = if head.starts_with(&[b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c]) {
        "a 7z archive; extract it first (7z x)"
    } else if head.starts_with(b"PK\x03\x04") {
        "a zip archive; extract it first (unzip)"
    } else if head.starts_with(&[0x04, 0x22, 0x4d, 0x18]) {
        "lz4-compressed data"
    } else {
        return None;
    };
    Some(format!(
        "it looks like {what}: pgn960 reads PGN, plain or compressed with {}",
        format_names()
    ))
}

/// What the first bytes of an input look like when they are not PGN, for the message of
/// an input in which no game was found.
pub fn describe_bytes(head: &[u8]) -> String {
    let text = String::from_utf8_lossy(head);
    let first_line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if head.iter().all(u8::is_ascii_whitespace) {
        return "it is empty".to_string();
    }
    if let Some(format) = unsupported_format(head) {
        return format;
    }
    if head.starts_with(b"PAR1") {
        return "it looks like a Parquet file".to_string();
    }
    if looks_like_fen(first_line) {
        return "it looks like a FEN/EPD list; use `pgn960 xfen` for those".to_string();
    }
    if first_line.starts_with('{') || first_line.starts_with("[{") {
        return "it looks like JSON".to_string();
    }
    if first_line.starts_with('<') {
        return "it looks like HTML or XML".to_string();
    }
    let binary = head
        .iter()
        .filter(|&&b| b < 0x09 || (0x0e..0x20).contains(&b))
        .count();
    if binary * 10 > head.len() {
        return format!(
            "it looks like binary data, not text: pgn960 reads PGN, plain or compressed with {}",
            format_names()
        );
    }
    let shown: String = first_line.chars().take(60).collect();
    format!("it starts with {shown:?}, not a PGN tag pair like [Event \"...\"] or a move")
}

/// Whether a line starts like a FEN: a piece placement of 8 ranks and a side to move.
fn looks_like_fen(line: &str) -> bool {
    let mut fields = line.split_whitespace();
    let (Some(placement), Some(turn)) = (fields.next(), fields.next()) else {
        return false;
    };
    placement.split('/').count() == 8
        && placement
            .chars()
            .all(|c| "pnbrqkPNBRQK12345678/".contains(c))
        && matches!(turn, "w" | "b")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_bytes() {
        let p = Path::new("x.pgn");
        assert_eq!(
            detect_compression(p, &[0x28, 0xb5, 0x2f, 0xfd]),
            Compression::Zstd
        );
        assert_eq!(
            detect_compression(p, &[0x1f, 0x8b, 8, 0]),
            Compression::Gzip
        );
        assert_eq!(detect_compression(p, b"BZh9"), Compression::Bzip2);
        assert_eq!(detect_compression(p, b"\xfd7zXZ\x00"), Compression::Xz);
        assert_eq!(detect_compression(p, b"[Eve"), Compression::None);
        assert_eq!(
            detect_compression(Path::new("x.pgn.zst"), b""),
            Compression::Zstd
        );
    }

    #[test]
    fn every_format_round_trips_through_its_encoder_and_decoder() {
        let text = b"[Event \"x\"]\n\n1. e4 e5 *\n".repeat(1000);
        for format in COMPRESSIONS {
            let buffer = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
            struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
            impl Write for Shared {
                fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                    self.0
                        .lock()
                        .map_err(|_| io::Error::other("poisoned"))?
                        .extend_from_slice(buf);
                    Ok(buf.len())
                }
                fn flush(&mut self) -> io::Result<()> {
                    Ok(())
                }
            }
            let mut enc = (format.encoder)(Box::new(Shared(buffer.clone()))).unwrap();
            enc.write_all(&text).unwrap();
            enc.finish().unwrap();
            let encoded = buffer.lock().unwrap().clone();
            assert!((format.matches)(&encoded), "{}", format.name);
            let mut decoded = Vec::new();
            (format.decoder)(Box::new(io::Cursor::new(encoded)))
                .unwrap()
                .read_to_end(&mut decoded)
                .unwrap();
            assert_eq!(decoded, text, "{}", format.name);
        }
    }

    #[test]
    fn what_bytes_look_like() {
        assert!(describe_bytes(b"7z\xbc\xaf\x27\x1c").contains("7z archive"));
        assert!(
            describe_bytes(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n")
                .contains("pgn960 xfen")
        );
        assert!(describe_bytes(b"\x00\x01\x02\x03\x04\x05").contains("binary"));
        assert_eq!(describe_bytes(b"  \n"), "it is empty");
        assert!(describe_bytes(b"hello world\n").contains("\"hello world\""));
    }
}
