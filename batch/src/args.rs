//! Options several commands share, declared once and flattened into each command's
//! arguments: the inputs, `--rejects`, `--normalise`/`--fen-style`, and a table's `-o` and
//! `--format` with the one rule that chooses a table's format ([`TableFormat::choose`]).
//! The help texts that name compressed files are made from
//! [`pgn960::compression::COMPRESSIONS`], so they list what is read and written.

use chess960_core::CastlingStyle;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use pgn960::compression;
use pgn960::validate::variant::VariantSpelling;
use std::path::PathBuf;

/// The input files of a command that reads games.
#[derive(Debug, Clone, clap::Args)]
pub struct Inputs {
    /// The inputs (see the help for what is read).
    #[arg(required = true, value_name = "INPUTS", help = inputs_help(""))]
    pub inputs: Vec<PathBuf>,
}

impl std::ops::Deref for Inputs {
    type Target = [PathBuf];
    fn deref(&self) -> &[PathBuf] {
        &self.inputs
    }
}

/// The help text of a command's inputs; `extra` is added (e.g. what `--merge` reads).
pub fn inputs_help(extra: &str) -> String {
    format!(
        "PGN files ({}), Parquet tables of games, directories (every such file below them, \
         in path order) or - for standard input; compression and Parquet are recognised by \
         content{extra}",
        compressed_names(".pgn")
    )
}

/// The names a compressed file of `base` may have: `.pgn, .pgn.zst, .pgn.gz, ...`, from
/// the compression table.
pub fn compressed_names(base: &str) -> String {
    std::iter::once(base.to_string())
        .chain(
            compression::COMPRESSIONS
                .iter()
                .map(|c| format!("{base}.{}", c.extension)),
        )
        .collect::<Vec<_>>()
        .join(", ")
}

/// The output compressions, for help texts: `.zst (zstd), .gz (gzip), ...`.
pub fn output_compressions() -> String {
    compression::COMPRESSIONS
        .iter()
        .map(|c| format!(".{} ({})", c.extension, c.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rule for exit statuses and output formats every command's help ends with.
pub fn common_help() -> String {
    format!(
        "Exit status: 0 every game counted or valid, 1 some invalid (rejected, not counted, an \
         unreadable FEN, a perft mismatch), 2 could not run (usage, I/O), 130 interrupted.\n\
         Outputs are written to temporary files and renamed into place only when every output \
         is complete; a name ending in {} is compressed so; a table's format is its \
         extension's (after the compression suffix), and a --format that disagrees is an \
         error (docs/outputs.md).",
        output_compressions()
    )
}

/// The options of every command that reads games (and, before the command's name, of
/// every command): threads, quiet, progress, the variant of untagged games, the game size
/// limit. `sp` takes none of them after its name, `perft` only -j and -q
/// ([`RunOptions`]).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ReadOptions {
    /// Worker threads (0, the default: one per core; at most 8 per core).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    /// Print nothing but errors: no progress bar, no summary, no problem lines (outputs named
    /// by -o, --json or --report are still written; the exit status still tells).
    #[arg(short, long)]
    pub quiet: bool,
    /// No progress bar (it is drawn only when standard error is a terminal).
    #[arg(long)]
    pub no_progress: bool,
    /// What games without a Variant tag are: `chess960` for archives that never write the
    /// tag (the lichess Parquet dataset; no FEN then means SP 518); `double-chess960` for
    /// Double Chess960 archives tagged Chess960 or not at all (a start not in the file is
    /// searched among the (white SP, black SP) pairs only). Default: Chess960 when the FEN
    /// says so (a non-classical start, file-letter castling), else classical.
    #[arg(long, value_enum, value_name = "VARIANT")]
    pub variant: Option<VariantArg>,
    /// Reject a game of more bytes as `too-large` (every command that reads games): read in
    /// pieces, never held whole, copied whole to the rejects; a stretch of junk that long is
    /// skipped in pieces. 0: no limit [default: 67108864].
    #[arg(long, value_name = "BYTES")]
    pub max_game_bytes: Option<usize>,
    /// The start to take for a game whose start is not in the file when several starts
    /// replay its main line and this one is among them (`start-ambiguous` otherwise; the
    /// repair `start-assumed`): an SP 0..959, or a Double Chess960 pair as white's SP and
    /// black's, `588,301` (as `(588, 301)` in the message). Read by every command that reads
    /// games (check, clean, export, filter, split, stats, tree, report, book).
    #[arg(long, value_name = "SP|W,B", value_parser = pgn960::validate::parse_assumed_start)]
    pub assume_sp: Option<chess960_core::SpPair>,
}

/// The options of `perft` among [`ReadOptions`]: threads and quiet.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct RunOptions {
    /// Worker threads (0, the default: one per core; at most 8 per core).
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    /// Print nothing but the counts (no summary line of a suite).
    #[arg(short, long)]
    pub quiet: bool,
}

/// The values of `--variant`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum VariantArg {
    /// Games without a Variant tag are Chess960.
    Chess960,
    /// Games without a Variant tag or tagged Chess960 are Double Chess960.
    DoubleChess960,
}

/// Where rejected games go (`filter`, `split`, `clean`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct RejectsOption {
    /// Write rejected (invalid) games here, byte for byte as read, with a TSV of their
    /// reasons beside it (FILE with .tsv for its extension); otherwise they are only
    /// counted (clean: by default OUT.rejects.pgn and OUT.rejects.tsv beside a file OUT,
    /// when a game was rejected).
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
}

/// `--normalise` and its FEN spelling (`filter`, `split`).
#[derive(Debug, Clone, clap::Args)]
pub struct NormaliseOptions {
    /// Write games as `clean` does (X-FEN or --fen-style, canonical SAN, the seven-tag
    /// roster first) instead of byte for byte as read.
    #[arg(long, alias = "normalize")]
    pub normalise: bool,
    /// With --normalise: FEN spelling, xfen or shredder.
    #[arg(long, value_name = "STYLE", value_parser = castling_style(), default_value = "xfen", requires = "normalise")]
    pub fen_style: CastlingStyle,
    /// With --normalise: the Variant tag written in Chess960 games.
    #[arg(long, value_name = "VALUE", value_parser = variant_spelling(), default_value = "chess960", requires = "normalise")]
    pub variant_tag: VariantSpelling,
}

impl NormaliseOptions {
    /// The FEN spelling to normalise to, when asked.
    pub fn style(&self) -> Option<CastlingStyle> {
        self.normalise.then_some(self.fen_style)
    }
}

/// A table's path and format (`stats`, `tree`, `export`).
#[derive(Debug, Clone, clap::Args)]
pub struct TableOutput {
    /// Where the table goes (- for standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: PathBuf,
    /// The table's format [default: from the extension of -o, after a compression suffix
    /// (.csv.zst is csv); else csv where the command writes csv].
    #[arg(long, value_enum)]
    pub format: Option<TableFormat>,
}

/// The formats of the tables the commands write (the library's: `export` writes through it).
pub use pgn960::table::format::TableFormat;

/// The parser of a castling style option (`xfen`, `shredder`).
pub fn castling_style() -> impl TypedValueParser<Value = CastlingStyle> {
    PossibleValuesParser::new([
        PossibleValue::new("xfen").help("KQkq, a file letter only for an inner rook"),
        PossibleValue::new("shredder").help("file letters, king side first (HAha)"),
    ])
    .map(|s| match s.as_str() {
        "shredder" => CastlingStyle::Shredder,
        _ => CastlingStyle::Xfen,
    })
}

/// The parser of `--variant-tag`: the Variant tag value written in Chess960 games.
pub fn variant_spelling() -> impl TypedValueParser<Value = VariantSpelling> {
    PossibleValuesParser::new([
        PossibleValue::new("chess960").help("Chess960, as lichess writes it"),
        PossibleValue::new("fischerandom").help("as cutechess and TCEC write it"),
        PossibleValue::new("chess 960").help("as pychess writes it"),
    ])
    .map(|s| s.parse().unwrap_or_default())
}

/// The parser of a speed option (`ultra-bullet`, `bullet`, `blitz`, `rapid`, `classical`).
pub use pgn960::select::speed_parser as speed;

/// The one wording of a start position number out of range.
pub use pgn960::select::sp_out_of_range;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_game_limit_in_the_help_is_the_library_s() {
        assert_eq!(pgn960::pipeline::DEFAULT_MAX_GAME_BYTES, 67108864);
    }

    #[test]
    fn help_texts_name_every_compression() {
        for c in compression::COMPRESSIONS {
            assert!(inputs_help("").contains(&format!(".pgn.{}", c.extension)));
            assert!(common_help().contains(&format!(".{} ", c.extension)));
        }
    }
}
