//! Parse-only and full-validation throughput on a lichess-style corpus, pgn960 next to
//! pgn-reader + shakmaty in the same run; the ratios are printed at the end.

use criterion::{Criterion, Throughput};
use pgn960_benches::{
    best_seconds, comment_heavy, corpus, our_check, our_parse, our_tag_scan, peer_check,
    peer_parse, peer_tag_scan, print_ratio,
};
use std::hint::black_box;

fn main() {
    let (name, bytes) = corpus();
    let mut c = Criterion::default().sample_size(10).configure_from_args();
    let mut group = c.benchmark_group(format!("pgn ({name})"));
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("parse/pgn960", |b| b.iter(|| our_parse(black_box(&bytes))));
    group.bench_function("parse/pgn-reader", |b| {
        b.iter(|| peer_parse(black_box(&bytes)))
    });
    group.bench_function("check/pgn960", |b| b.iter(|| our_check(black_box(&bytes))));
    group.bench_function("check/pgn-reader+shakmaty", |b| {
        b.iter(|| peer_check(black_box(&bytes)))
    });
    group.bench_function("tag scan/pgn960", |b| {
        b.iter(|| our_tag_scan(black_box(&bytes)))
    });
    group.bench_function("tag scan/pgn-reader", |b| {
        b.iter(|| peer_tag_scan(black_box(&bytes)))
    });
    group.finish();
    let comments = comment_heavy(400);
    let mut group = c.benchmark_group("comment skip (a comment after every move)");
    group.throughput(Throughput::Bytes(comments.len() as u64));
    group.bench_function("pgn960", |b| b.iter(|| our_parse(black_box(&comments))));
    group.bench_function("pgn-reader", |b| {
        b.iter(|| peer_parse(black_box(&comments)))
    });
    group.finish();
    c.final_summary();

    print_ratios(&bytes, &comments);
}

/// The ratios, best of a few runs each, printed after criterion's report.
fn print_ratios(bytes: &[u8], comments: &[u8]) {
    let mb = bytes.len() as f64 / 1e6;
    assert_eq!(
        our_tag_scan(bytes),
        peer_tag_scan(bytes),
        "same games and tags"
    );
    let (o, p) = (
        best_seconds(5, || {
            black_box(our_tag_scan(bytes));
        }),
        best_seconds(5, || {
            black_box(peer_tag_scan(bytes));
        }),
    );
    print_ratio("tag scan (movetext skipped)", "MB/s", mb / o, mb / p);
    let cmb = comments.len() as f64 / 1e6;
    assert_eq!(our_parse(comments), peer_parse(comments), "same moves");
    let (o, p) = (
        best_seconds(5, || {
            black_box(our_parse(comments));
        }),
        best_seconds(5, || {
            black_box(peer_parse(comments));
        }),
    );
    print_ratio("comment skip", "MB/s", cmb / o, cmb / p);
    let ours = our_check(bytes);
    let peer = peer_check(bytes);
    assert_eq!(ours.games, peer.games, "both read the same games");
    let (o, p) = (
        best_seconds(5, || {
            black_box(our_parse(bytes));
        }),
        best_seconds(5, || {
            black_box(peer_parse(bytes));
        }),
    );
    print_ratio("parse-only", "MB/s", mb / o, mb / p);
    let (o, p) = (
        best_seconds(3, || {
            black_box(our_check(bytes));
        }),
        best_seconds(3, || {
            black_box(peer_check(bytes));
        }),
    );
    print_ratio(
        "full validation",
        "games/s",
        ours.games as f64 / o,
        peer.games as f64 / p,
    );
}
