//! The integration tests of the `pgn960` command, in one binary: each module is a
//! subcommand or a concern; `util` holds what they share.

mod util;

mod bad_input;
mod bounds;
mod calibration;
mod check_clean;
mod dialect;
mod export;
mod faults;
mod filter;
mod fuzz_regressions;
mod game_boundaries;
mod hardening;
mod library;
mod mutations;
mod normalise;
mod output_rules;
mod outputs;
mod plumbing;
mod python_oracle;
mod recover;
mod report;
mod report_filtered;
mod report_groups;
mod report_page;
mod report_stats_port;
mod significance;
mod sp_perft;
mod split;
mod stats;
mod stats_by;
mod stats_merge;
mod statuses;
mod tree;
mod xfen;
