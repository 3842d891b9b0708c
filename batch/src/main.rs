//! `pgn960`: clean, check and analyse Chess960 PGN archives.

use clap::Parser;
use pgn960_cli::cli::{self, Cli};
use pgn960_cli::handlers;

/// mimalloc: the per-game and per-move allocations of `export` cost a third of glibc's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's option `purge_delay` (its place in `mi_option_t`, the same in the v2 and v3
/// that `libmimalloc-sys` 0.1.49 bundles; the crate names it only with its `extended`
/// feature, which brings a dependency).
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

extern "C" {
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// Freed memory kept for reuse, not handed back to the kernel, which zeroes each page again
/// at its next first touch: `export` makes and frees zstd contexts in glibc's heap (the
/// parquet crate's, per column and row group) and its column buffers in mimalloc's every
/// chunk (`export -j1` of 300 MB: 17,795 page faults before, 5,395 with this). glibc's heap
/// (the C libraries') keeps up to 64 MiB free and maps on their own only allocations of
/// 32 MiB or more; mimalloc never purges.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets parameters of the allocator; called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
    }
    // SAFETY: an option of the allocator this binary links (`ALLOCATOR`), set before any
    // thread starts; -1: never purge.
    unsafe { mi_option_set(MI_OPTION_PURGE_DELAY, -1) }
}

fn main() {
    keep_freed_memory();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                cli::EXIT_ERROR
            } else {
                cli::EXIT_OK
            };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    handlers::install(cli::EXIT_INTERRUPTED);
    let code = match cli::run(cli) {
        Ok(code) => code,
        Err(e) => cli::report_error(&e),
    };
    std::process::exit(code);
}
