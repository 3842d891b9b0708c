//! "One source": the report page's JavaScript port of `pgn960::stats` (the section of
//! `batch/src/report/page.js` between its BEGIN and END markers) against the Rust
//! functions, on many seeded random tables — small counts, zeros, one SP, huge counts,
//! draw-heavy, stratified and not — run in headless Chromium (file://, nothing fetched).
//! p- and q-values must agree to 1e-12 relative, the intervals exactly, the verdict text
//! (with its caveat) to the byte.

use crate::report::chromium;
use pgn960::stats::by::{ByKey, KeyValue};
use pgn960::stats::groups::{draw_analysis, draw_rate_interval, group_tables, Feature, GroupTable};
use pgn960::stats::significance::{Analysis, Wdl};
use pgn960::stats::table::{SpCounts, SpRow, SpTables};
use serde_json::{json, Value};

/// A seeded generator for the cases (SplitMix64, as the library's).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// One stratum of 960 rows: `used` SPs with games, each outcome up to `most`, draws
/// weighted by `drawish` (0..=3).
fn stratum(rng: &mut Rng, used: u64, most: u64, drawish: u64) -> Vec<Wdl> {
    let mut rows = vec![Wdl::default(); 960];
    for _ in 0..used {
        let sp = rng.below(960) as usize;
        let w = rng.below(most + 1);
        let d = rng.below(most + 1) * (1 + drawish);
        let l = rng.below(most + 1);
        rows[sp] = Wdl::new(w, d, l);
    }
    rows
}

/// The cases: (name, strata); one stratum is tested as one table.
fn cases() -> Vec<(String, Vec<Vec<Wdl>>)> {
    let mut rng = Rng(30);
    let mut out = Vec::new();
    for i in 0..36u64 {
        let (used, most) = match i % 6 {
            0 => (3, 3),
            1 => (40, 2),
            2 => (12, 30),
            3 => (200, 6),
            4 => (5, 400),
            _ => (960, 1),
        };
        let strata = 1 + (i / 6) % 4;
        let tables = (0..strata)
            .map(|_| stratum(&mut rng, used, most, i % 4))
            .collect();
        out.push((format!("random {i}"), tables));
    }
    let mut one = vec![Wdl::default(); 960];
    one[518] = Wdl::new(5, 2, 1);
    out.push(("one SP".into(), vec![one.clone()]));
    out.push(("no games".into(), vec![vec![Wdl::default(); 960]]));
    out.push(("no strata".into(), Vec::new()));
    let mut draws = vec![Wdl::default(); 960];
    draws[1] = Wdl::new(0, 9, 0);
    draws[2] = Wdl::new(0, 4, 0);
    out.push(("all draws".into(), vec![draws]));
    let mut huge = vec![Wdl::default(); 960];
    for (sp, row) in huge.iter_mut().enumerate().step_by(7) {
        let k = 1_000_000_000 + rng.below(1_000_000_000);
        *row = Wdl::new(k + sp as u64 * 1000, 2 * k, k - 37 * sp as u64);
    }
    out.push(("huge counts".into(), vec![huge]));
    let mut rare = vec![Wdl::default(); 960];
    for (sp, row) in rare.iter_mut().enumerate().take(60) {
        *row = Wdl::new(10_000 + sp as u64, 30_000, (sp % 3) as u64);
    }
    out.push(("large, black wins rare (exact)".into(), vec![rare]));
    let mut outlier = vec![Wdl::new(40, 20, 40); 100];
    outlier.resize(960, Wdl::default());
    outlier[7] = Wdl::new(80, 10, 10);
    out.push(("strong outlier".into(), vec![outlier]));
    // Two events that differ only in their mix: the caveat.
    let (mut a, mut b) = (vec![Wdl::default(); 960], vec![Wdl::default(); 960]);
    for i in 0..10 {
        a[i] = Wdl::new(3, 0, 0);
        b[i + 10] = Wdl::new(0, 3, 0);
    }
    out.push(("caveat".into(), vec![a, b.clone()]));
    out.push(("one stratum with games".into(), vec![b, one]));
    out
}

/// The library's analyses of a case, by the functions `pgn960 stats` and the page's Rust
/// side call: the SP table (`SpTables::sp_cell`), the draw rates (`draw_analysis`) and the
/// groups (`group_tables`); one stratum is one table without strata (`--strata none`),
/// several are events "e00", "e01", ….
fn rust_side(strata: &[Vec<Wdl>]) -> (Analysis, Analysis, Vec<GroupTable>) {
    let mut tables = SpTables::new(Vec::new());
    let total = |sp: usize| -> Wdl {
        strata.iter().fold(Wdl::default(), |a, s| {
            Wdl::new(
                a.white_wins + s[sp].white_wins,
                a.draws + s[sp].draws,
                a.black_wins + s[sp].black_wins,
            )
        })
    };
    for sp in 0..960 {
        let r = if strata.is_empty() {
            Wdl::default()
        } else {
            total(sp)
        };
        if r.games() > 0 {
            *tables.sp_counts(&[], sp as u16).unwrap() = counts(r);
        }
    }
    if strata.len() != 1 {
        tables.strata = Some(ByKey::Event);
        let mut by_value = std::collections::BTreeMap::new();
        for (k, s) in strata.iter().enumerate() {
            let rows = s
                .iter()
                .enumerate()
                .filter(|(_, r)| r.games() > 0)
                .map(|(sp, r)| (sp as u16, *r))
                .collect();
            by_value.insert(KeyValue::Text(Some(format!("e{k:02}"))), rows);
        }
        tables.by_stratum.insert(Vec::new(), by_value);
    }
    let key = Vec::new();
    (
        tables.sp_cell(&key).analysis,
        draw_analysis(&tables, &key).analysis,
        group_tables(&tables, &key),
    )
}

fn counts(r: Wdl) -> SpCounts {
    SpCounts {
        games: r.games(),
        white_wins: r.white_wins,
        draws: r.draws,
        black_wins: r.black_wins,
        ..SpCounts::default()
    }
}

/// The harness page: the port, the cases, and the answers written into the DOM.
fn harness(port: &str, cases: &Value, groups: &Value) -> String {
    format!(
        "<!doctype html><meta charset=utf-8><pre id=out></pre><script>\"use strict\";\n{port}\n\
         const CASES = {cases};\n\
         const one = (a) => ({{ tests: a.tests.map((t) => [t.p, t.q, t.z, t.method]), h: a.homogeneity, verdict: a.verdict.text, caveat: a.verdict.caveat, pooled: a.pooled.score }});\n\
         const GROUPS = {groups};\n\
         const out = CASES.map((c) => {{\n\
           const whole = c.strata.length === 1 ? c.strata[0] : null;\n\
           const summed = Array.from({{ length: 960 }}, (_, i) => c.strata.reduce((a, s) => [a[0] + s[i][0], a[1] + s[i][1], a[2] + s[i][2]], [0, 0, 0]));\n\
           const strata = whole ? null : c.strata;\n\
           const t = STATS.analyseTable(summed, strata, \"event\");\n\
           const groups = GROUPS.map((g) => STATS.groupTable(summed, strata, \"event\", g.sps, g.mirror));\n\
           const rows = summed.map((r) => {{\n\
             const n = r[0] + r[1] + r[2];\n\
             const s = STATS.wilson(r[0], r[1], n), d = STATS.wilson(r[1], 0, n);\n\
             return [s && s.map(STATS.round6), d && d.map(STATS.round6)];\n\
           }});\n\
           return {{ score: one(t.score), draws: one(t.draws), rows, groups }};\n\
         }});\n\
         document.getElementById(\"out\").textContent = JSON.stringify(out);\n</script>"
    )
}

/// The port's section of page.js.
fn port_source() -> String {
    let page = include_str!("../../src/report/page.js");
    let start = page
        .find("  // ==== BEGIN port of pgn960::stats")
        .expect("the port's BEGIN marker");
    let end = page.find("  // ==== END port").expect("the END marker");
    page[start..end].to_string()
}

fn close(a: Option<f64>, b: &Value, what: &str) {
    match (a, b.as_f64()) {
        (None, None) => {}
        (Some(a), Some(b)) => assert!(
            a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs()),
            "{what}: Rust {a:e}, page {b:e}"
        ),
        _ => panic!("{what}: Rust {a:?}, page {b}"),
    }
}

fn compare(name: &str, rust: &Analysis, page: &Value) {
    assert_eq!(
        page["verdict"].as_str(),
        Some(rust.verdict.text.as_str()),
        "{name}: the verdict"
    );
    assert_eq!(
        page["caveat"].as_str(),
        rust.verdict.caveat.as_deref(),
        "{name}"
    );
    close(rust.pooled.score, &page["pooled"], &format!("{name}: pool"));
    let tests = page["tests"].as_array().unwrap();
    assert_eq!(tests.len(), rust.tests.len(), "{name}: rows");
    for (i, (r, p)) in rust.tests.iter().zip(tests).enumerate() {
        close(r.p, &p[0], &format!("{name}: p of row {i}"));
        close(r.q, &p[1], &format!("{name}: q of row {i}"));
        close(r.z, &p[2], &format!("{name}: z of row {i}"));
        let method = r.method.map(|m| format!("{m:?}").to_lowercase());
        assert_eq!(
            p[3].as_str(),
            method.as_deref(),
            "{name}: method of row {i}"
        );
    }
    match (&rust.homogeneity, page["h"].is_null()) {
        (None, true) => {}
        (Some(h), false) => {
            let p = &page["h"];
            close(Some(h.chi2), &p["chi2"], &format!("{name}: chi2"));
            close(Some(h.p), &p["p"], &format!("{name}: homogeneity p"));
            assert_eq!(p["df"].as_u64(), Some(h.df), "{name}");
            assert_eq!(p["permutations"].as_u64(), h.permutations, "{name}");
            assert_eq!(p["method"].as_str(), Some(h.method), "{name}");
            assert_eq!(p["strata"].as_u64(), Some(h.strata as u64), "{name}");
        }
        (h, _) => panic!("{name}: homogeneity Rust {h:?}, page {}", page["h"]),
    }
}

/// A group table of the library against the page's (rows field by field, the tests).
fn compare_groups(name: &str, rust: &GroupTable, page: &Value) {
    let name = format!("{name}, groups by {:?}", rust.feature);
    let rows = page["rows"].as_array().unwrap();
    assert_eq!(rows.len(), rust.rows.len(), "{name}");
    for (r, p) in rust.rows.iter().zip(rows) {
        let r = serde_json::to_value(r).unwrap();
        for (field, value) in p.as_object().unwrap() {
            if r[field].is_u64() {
                assert_eq!(&r[field], value, "{name}: {field} of {}", r["group"]);
            } else {
                close(
                    r[field].as_f64(),
                    value,
                    &format!("{name}: {field} of {}", r["group"]),
                );
            }
        }
    }
    for (h, p) in [
        (&rust.homogeneity, &page["homogeneity"]),
        (&rust.draw_homogeneity, &page["draw_homogeneity"]),
        (&rust.within_pairs, &page["within_pairs"]),
    ] {
        close(h.map(|h| h.p), &p["p"], &format!("{name}: homogeneity"));
        close(h.map(|h| h.chi2), &p["chi2"], &format!("{name}: chi2"));
    }
}

#[test]
fn the_pages_statistics_are_the_librarys() {
    const TEST: &str = "the_pages_statistics_are_the_librarys";
    let cases = cases();
    let input: Value = cases
        .iter()
        .map(|(_, strata)| {
            let strata: Vec<Vec<[u64; 3]>> = strata
                .iter()
                .map(|s| {
                    s.iter()
                        .map(|r| [r.white_wins, r.draws, r.black_wins])
                        .collect()
                })
                .collect();
            json!({ "strata": strata })
        })
        .collect();
    let (_, _, some_groups) = rust_side(&[]);
    let groups: Value = some_groups
        .iter()
        .map(|g| {
            let sps: Vec<&Vec<u16>> = g.rows.iter().map(|r| &r.sps).collect();
            json!({ "sps": sps, "mirror": g.feature == Feature::Mirror })
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("port.html");
    std::fs::write(&page, harness(&port_source(), &input, &groups)).unwrap();
    let Some(seen) = chromium(TEST, &page, "") else {
        return;
    };
    assert!(seen.page_requests.is_empty(), "{:?}", seen.page_requests);
    let text = &seen.dom[seen.dom.find("<pre id=\"out\">").expect("the output") + 14..];
    let text = &text[..text.find("</pre>").unwrap()].replace("&quot;", "\"");
    let out: Value = serde_json::from_str(text).expect("the page's answers");
    let mut kinds = [0usize; 2];
    for ((name, strata), page) in cases.iter().zip(out.as_array().unwrap()) {
        let (score, draws, groups) = rust_side(strata);
        compare(name, &score, &page["score"]);
        compare(&format!("{name} (draws)"), &draws, &page["draws"]);
        for (g, p) in groups.iter().zip(page["groups"].as_array().unwrap()) {
            compare_groups(name, g, p);
        }
        for h in [&score.homogeneity, &draws.homogeneity]
            .into_iter()
            .flatten()
        {
            kinds[usize::from(h.permutations.is_some())] += 1;
        }
        for (sp, shown) in page["rows"].as_array().unwrap().iter().enumerate() {
            let r = strata.iter().fold(Wdl::default(), |a, s| {
                Wdl::new(
                    a.white_wins + s[sp].white_wins,
                    a.draws + s[sp].draws,
                    a.black_wins + s[sp].black_wins,
                )
            });
            let c = counts(r);
            let row = SpRow::new(sp as u16, None, String::new(), &c);
            let pair = |v: &Value| {
                v.as_array()
                    .map(|a| (a[0].as_f64().unwrap(), a[1].as_f64().unwrap()))
            };
            let score = row.white_score_lo.zip(row.white_score_hi);
            assert_eq!(pair(&shown[0]), score, "{name}: interval of SP {sp}");
            let draw = draw_rate_interval(&c)
                .map(|(a, b)| ((a * 1e6).round() / 1e6, (b * 1e6).round() / 1e6));
            assert_eq!(pair(&shown[1]), draw, "{name}: draw interval of SP {sp}");
        }
    }
    // Both laws of the homogeneity test were exercised.
    assert!(
        kinds[0] > 3 && kinds[1] > 3,
        "chi-square, permutation: {kinds:?}"
    );
}
