//! A progress bar on standard error, shown only when it is a terminal and not turned off
//! (`--quiet`, `--no-progress`).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// Progress of one run over all inputs (bytes of the inputs; games in the message).
pub struct Progress {
    bar: ProgressBar,
    games: u64,
}

impl Progress {
    /// A bar for `total_bytes` (unknown total: a spinner), hidden unless stderr is a terminal.
    pub fn new(total_bytes: Option<u64>, quiet: bool) -> Progress {
        let visible = !quiet && std::io::stderr().is_terminal();
        let bar = match total_bytes {
            Some(total) => ProgressBar::new(total),
            None => ProgressBar::new_spinner(),
        };
        if visible {
            bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(8));
            let template = if total_bytes.is_some() {
                "{bar:30.cyan/blue} {bytes}/{total_bytes} {binary_bytes_per_sec} ETA {eta} {msg}"
            } else {
                "{spinner} {bytes} {binary_bytes_per_sec} {msg}"
            };
            if let Ok(style) = ProgressStyle::with_template(template) {
                bar.set_style(style);
            }
            bar.enable_steady_tick(Duration::from_millis(250));
        } else {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        }
        Progress { bar, games: 0 }
    }

    /// Records `bytes` more input bytes and `games` more games.
    pub fn advance(&mut self, bytes: u64, games: u64) {
        self.games += games;
        self.bar.inc(bytes);
        if let Some(secs) = Some(self.bar.elapsed().as_secs_f64()).filter(|s| *s > 0.0) {
            self.bar.set_message(format!(
                "{} games, {:.0} games/s",
                self.games,
                self.games as f64 / secs
            ));
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiet_bar_counts_without_drawing() {
        let mut bar = Progress::new(Some(100), true);
        assert!(bar.bar.is_hidden());
        bar.advance(60, 3);
        bar.advance(40, 2);
        assert_eq!(bar.bar.position(), 100);
        assert_eq!(bar.games, 5);
        bar.finish();
        let mut spinner = Progress::new(None, true);
        spinner.advance(7, 1);
        assert_eq!(spinner.bar.length(), None);
        spinner.finish();
    }
}
