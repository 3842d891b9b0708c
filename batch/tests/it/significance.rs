//! Per-SP significance and pentanomial Elo against an independent implementation:
//! `scripts/significance_oracle.py` (scipy, statsmodels) recomputes every p-value, q-value,
//! chi-square test, funnel band and Elo interval from the same tables, and every number must
//! agree to 1e-9 relative. Skips when python3, scipy or statsmodels is missing, except under
//! `CI`, where that fails.

use crate::util::*;

use pgn960::stats::pentanomial::{EloEstimate, Pentanomial};
use pgn960::stats::significance::{analyse, Analysis, Funnel, Method, Wdl};
use serde_json::{json, Value};
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

fn oracle_available(test: &str) -> bool {
    python_with(test, &["scipy", "statsmodels"]).is_some()
}

/// SplitMix64: a small seeded generator, so the tables are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// `games` games drawn from white-win and draw probabilities.
    fn wdl(&mut self, games: u64, win: f64, draw: f64) -> Wdl {
        let mut r = Wdl::default();
        for _ in 0..games {
            let u = self.unit();
            if u < win {
                r.white_wins += 1;
            } else if u < win + draw {
                r.draws += 1;
            } else {
                r.black_wins += 1;
            }
        }
        r
    }
}

/// The tables: nothing differs, a strong outlier, a sparse corpus-like table, and edge cases.
fn tables() -> Vec<(&'static str, Vec<Wdl>)> {
    let mut rng = Rng(960);
    let null: Vec<Wdl> = (0..960)
        .map(|_| {
            let n = 20 + rng.below(61);
            rng.wdl(n, 0.45, 0.2)
        })
        .collect();
    let mut outlier = null.clone();
    outlier[123] = rng.wdl(200, 0.8, 0.1);
    let sparse: Vec<Wdl> = (0..960)
        .map(|_| {
            let n = rng.below(9);
            rng.wdl(n, 0.5, 0.1)
        })
        .collect();
    let no_draws: Vec<Wdl> = (0..40)
        .map(|_| {
            let n = rng.below(30);
            rng.wdl(n, 0.55, 0.0)
        })
        .collect();
    let mut huge = vec![Wdl::new(400_000_000, 200_000_000, 350_000_000); 960];
    huge[5] = Wdl::new(400_100_000, 200_000_000, 349_900_000);
    let mut all_draws = vec![Wdl::default(); 960];
    all_draws[3] = Wdl::new(0, 7, 0);
    all_draws[900] = Wdl::new(0, 2, 0);
    let mut all_wins = vec![Wdl::default(); 960];
    all_wins[0] = Wdl::new(3, 0, 0);
    all_wins[518] = Wdl::new(9, 0, 0);
    let mut one_game_each = vec![Wdl::default(); 960];
    one_game_each[1] = Wdl::new(1, 0, 0);
    one_game_each[2] = Wdl::new(0, 0, 1);
    one_game_each[3] = Wdl::new(0, 1, 0);
    let mut single_game = vec![Wdl::default(); 960];
    single_game[518] = Wdl::new(0, 1, 0);
    let mut one_sp = vec![Wdl::default(); 960];
    one_sp[17] = Wdl::new(30, 12, 20);
    let dfrc_cut: Vec<Wdl> = (0..25)
        .map(|_| {
            let n = 1 + rng.below(12);
            rng.wdl(n, 0.4, 0.3)
        })
        .collect();
    vec![
        ("nothing differs", null),
        ("strong outlier at SP 123", outlier),
        ("sparse, 0-8 games an SP", sparse),
        ("no draws at all", no_draws),
        ("a billion games an SP", huge),
        ("empty", vec![Wdl::default(); 960]),
        ("all draws", all_draws),
        ("all white wins", all_wins),
        ("one game in each of three SPs", one_game_each),
        ("one game in all", single_game),
        ("one SP has every game", one_sp),
        ("a 25-row cut", dfrc_cut),
    ]
}

fn pentanomials() -> Vec<(String, Pentanomial, f64)> {
    let mut out: Vec<(String, Pentanomial, f64)> = [
        ("symmetric", [1, 2, 4, 2, 1]),
        ("hand example", [1, 1, 3, 4, 1]),
        ("fishtest-sized", [10789, 19328, 33806, 19402, 10543]),
        ("drawish", [39, 2226, 31451, 2412, 40]),
        ("all wins", [0, 0, 0, 0, 5]),
        ("all losses", [4, 0, 0, 0, 0]),
        ("all DD or WL", [0, 0, 7, 0, 0]),
        ("interval reaches 1", [0, 0, 0, 1, 3]),
        ("one pair", [0, 1, 0, 0, 0]),
        ("empty", [0; 5]),
    ]
    .into_iter()
    .map(|(name, counts)| (name.to_string(), Pentanomial { counts }, 0.95))
    .collect();
    let mut rng = Rng(5);
    for i in 0..20 {
        let counts = [0; 5].map(|_| rng.below(200));
        let level = if i % 2 == 0 { 0.95 } else { 0.99 };
        out.push((format!("random {i}"), Pentanomial { counts }, level));
    }
    out
}

const FUNNEL_LEVEL: f64 = 0.95;

fn funnel_ns(rows: &[Wdl]) -> Vec<u64> {
    let total: u64 = rows.iter().map(Wdl::games).sum();
    vec![0, 1, 2, 3, 5, 10, 30, 100, 1000, 100_000, total, total + 5]
}

/// Parses an oracle number: a float, or "inf" / "-inf" / "nan", or null.
fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Null => None,
        Value::String(s) => Some(match s.as_str() {
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            _ => f64::NAN,
        }),
        v => v.as_f64(),
    }
}

/// Equal to 1e-9 relative (1e-12 absolute near 0; both below 1e-300 count as equal, the
/// underflow of tail probabilities).
fn agree(what: &str, ours: Option<f64>, theirs: Option<f64>) {
    let ok = match (ours, theirs) {
        (None, None) => true,
        (Some(a), Some(b)) if a.is_nan() || b.is_nan() => false,
        (Some(a), Some(b)) if a.is_infinite() || b.is_infinite() => a == b,
        (Some(a), Some(b)) => {
            (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
                || (a - b).abs() <= 1e-12
                || (a.abs() < 1e-300 && b.abs() < 1e-300)
        }
        _ => false,
    };
    assert!(ok, "{what}: pgn960 {ours:?}, oracle {theirs:?}");
}

fn compare_table(name: &str, rows: &[Wdl], a: &Analysis, funnel: Option<Funnel>, o: &Value) {
    agree(
        &format!("{name}: pooled score"),
        a.pooled.score,
        num(&o["pooled"]["score"]),
    );
    agree(
        &format!("{name}: pooled sd"),
        Some(a.pooled.sd),
        num(&o["pooled"]["sd"]),
    );
    for (i, t) in a.tests.iter().enumerate() {
        agree(&format!("{name}: z of row {i}"), t.z, num(&o["z"][i]));
        agree(&format!("{name}: p of row {i}"), t.p, num(&o["p"][i]));
        agree(&format!("{name}: q of row {i}"), t.q, num(&o["q"][i]));
        let method = t.method.map(|m| match m {
            Method::Exact => "exact",
            Method::Normal => "normal",
        });
        assert_eq!(method, o["method"][i].as_str(), "{name}: method of row {i}");
    }
    assert_eq!(a.tests.len(), rows.len());
    let oh = &o["homogeneity"];
    match &a.homogeneity {
        None => assert!(oh.is_null(), "{name}: oracle has a homogeneity test: {oh}"),
        Some(h) => {
            agree(&format!("{name}: chi2"), Some(h.chi2), num(&oh["chi2"]));
            assert_eq!(Some(h.method), oh["method"].as_str(), "{name}: method");
            match (h.monte_carlo_se, num(&oh["p_se"])) {
                (Some(se), Some(their_se)) => {
                    // Two Monte Carlo runs: within 4.5 combined standard errors (at least
                    // one permutation's worth).
                    let tolerance = 4.5 * (se * se + their_se * their_se).sqrt() + 1e-3;
                    let p = num(&oh["p"]).unwrap_or(f64::NAN);
                    assert!(
                        (h.p - p).abs() <= tolerance,
                        "{name}: permutation p {} vs {p}",
                        h.p
                    );
                }
                (None, None) => agree(&format!("{name}: chi2 p"), Some(h.p), num(&oh["p"])),
                other => panic!("{name}: Monte Carlo errors {other:?}"),
            }
            agree(
                &format!("{name}: min expected"),
                Some(h.min_expected),
                num(&oh["min_expected"]),
            );
            assert_eq!(Some(h.df), oh["df"].as_u64(), "{name}: df");
            assert_eq!(Some(h.rows as u64), oh["rows"].as_u64(), "{name}: rows");
            assert_eq!(
                Some(h.outcomes as u64),
                oh["outcomes"].as_u64(),
                "{name}: outcomes"
            );
            assert_eq!(
                Some(h.cells_below_5 as u64),
                oh["cells_below_5"].as_u64(),
                "{name}: cells"
            );
        }
    }
    if o["differs_undecided"] != Value::Bool(true) {
        assert_eq!(
            Some(a.verdict.differs),
            o["differs"].as_bool(),
            "{name}: {}",
            a.verdict.text
        );
    }
    for (k, n) in funnel_ns(rows).into_iter().enumerate() {
        let band = funnel.and_then(|f| f.band(n));
        let ob = &o["funnel"][k];
        agree(
            &format!("{name}: funnel low at {n}"),
            band.map(|b| b.0),
            num(&ob[0]),
        );
        agree(
            &format!("{name}: funnel high at {n}"),
            band.map(|b| b.1),
            num(&ob[1]),
        );
    }
}

fn compare_pentanomial(name: &str, e: Option<EloEstimate>, o: &Value) {
    let Some(e) = e else {
        assert!(o.is_null(), "{name}: oracle has an estimate: {o}");
        return;
    };
    assert_eq!(Some(e.pairs), o["pairs"].as_u64(), "{name}: pairs");
    let fields = [
        ("score", e.score),
        ("pair_sd", e.pair_sd),
        ("score_lo", e.score_lo),
        ("score_hi", e.score_hi),
        ("elo", e.elo),
        ("elo_lo", e.elo_lo),
        ("elo_hi", e.elo_hi),
    ];
    for (field, ours) in fields {
        agree(&format!("{name}: {field}"), Some(ours), num(&o[field]));
    }
    agree(&format!("{name}: los"), e.los, num(&o["los"]));
}

#[test]
fn significance_and_pentanomials_agree_with_scipy_and_statsmodels() {
    if !oracle_available(
        "significance::significance_and_pentanomials_agree_with_scipy_and_statsmodels",
    ) {
        return;
    }
    let tables = tables();
    let pentanomials = pentanomials();
    let input = json!({
        "tables": tables.iter().map(|(name, rows)| json!({
            "name": name,
            "rows": rows.iter().map(|r| [r.white_wins, r.draws, r.black_wins]).collect::<Vec<_>>(),
            "level": FUNNEL_LEVEL,
            "funnel_ns": funnel_ns(rows),
        })).collect::<Vec<_>>(),
        "pentanomials": pentanomials.iter().map(|(name, p, level)| json!({
            "name": name, "counts": p.counts, "level": level,
        })).collect::<Vec<_>>(),
    });
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/significance_oracle.py");
    let mut child = Command::new("python3")
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let text = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().expect("the oracle finishes");
    writer
        .join()
        .expect("writer thread")
        .expect("input written");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let oracle: Value = serde_json::from_slice(&out.stdout).expect("oracle JSON");

    for (k, (name, rows)) in tables.iter().enumerate() {
        let a = analyse(rows);
        compare_table(
            name,
            rows,
            &a,
            Funnel::new(rows, FUNNEL_LEVEL),
            &oracle["tables"][k],
        );
    }
    for (k, (name, p, level)) in pentanomials.iter().enumerate() {
        compare_pentanomial(name, p.elo_estimate(*level), &oracle["pentanomials"][k]);
    }

    // What the generated tables should show, beyond agreeing with the oracle.
    let verdict = |k: usize| analyse(&tables[k].1).verdict;
    assert!(!verdict(0).differs, "{}", verdict(0).text);
    let outlier = verdict(1);
    assert!(outlier.differs, "{}", outlier.text);
    assert_eq!(outlier.lowest_q.map(|l| l.0), Some(123), "{}", outlier.text);
    assert!(outlier.text.contains("SP 123"), "{}", outlier.text);
    assert!(verdict(4).differs, "{}", verdict(4).text);
}
