//! Calibration of the verdict (issue 24), on seeded simulated archives, calling the library
//! directly: where the start position cannot matter (results drawn independently of it),
//! the verdict says "Yes" in at most 5% of archives (plus binomial slack) and the per-SP
//! flags have a false discovery proportion of at most 5% on average; where 5 of 30 SPs
//! really favour white, the verdict finds them in at least 90% of archives. And the
//! acceptance cases: a TCEC-final-like archive gives "No"; the TCEC files concatenated get
//! a valid test and, within events, the stratified answer with its caveat.

use crate::util::*;

use pgn960::stats::exact::SplitMix64;
use pgn960::stats::significance::{analyse, analyse_within, Analysis, Wdl, ALPHA};
use std::collections::BTreeMap;

/// Archives per design.
const ARCHIVES: usize = 200;

/// `games` results drawn with white-win and draw probabilities.
fn draw(rng: &mut SplitMix64, games: u64, win: f64, draws: f64) -> Wdl {
    let mut r = Wdl::default();
    for _ in 0..games {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        if u < win {
            r.white_wins += 1;
        } else if u < win + draws {
            r.draws += 1;
        } else {
            r.black_wins += 1;
        }
    }
    r
}

/// A null design: SPs, games per SP (drawn from the closure), W and D probabilities.
struct Design {
    name: &'static str,
    sps: usize,
    games: fn(&mut SplitMix64) -> u64,
    win: f64,
    draws: f64,
}

/// The largest number of "Yes" among `n` archives that is not evidence (one-sided, 1%)
/// against a true rate of `rate`: the 99% quantile of Binomial(n, rate).
fn binomial_slack(n: usize, rate: f64) -> usize {
    let mut cdf = 0.0;
    for k in 0..=n {
        let log_pmf = (1..=k)
            .map(|i| ((n - k + i) as f64 / i as f64).ln())
            .sum::<f64>()
            + k as f64 * rate.ln()
            + (n - k) as f64 * (1.0 - rate).ln();
        cdf += log_pmf.exp();
        if cdf >= 0.99 {
            return k;
        }
    }
    n
}

/// Rates over the archives of a design: verdict "Yes", mean false discovery proportion of
/// the per-SP flags (SPs in `real` really differ; the others do not), mean share of the
/// `real` SPs flagged.
fn rates(archives: &[Analysis], real: &[usize]) -> (f64, f64, f64) {
    let n = archives.len() as f64;
    let yes = archives.iter().filter(|a| a.verdict.differs).count() as f64 / n;
    let mut fdp = 0.0;
    let mut found = 0.0;
    for a in archives {
        let flagged: Vec<usize> = (0..a.tests.len())
            .filter(|&i| a.tests[i].q.is_some_and(|q| q < ALPHA))
            .collect();
        let false_flags = flagged.iter().filter(|i| !real.contains(i)).count();
        fdp += false_flags as f64 / flagged.len().max(1) as f64;
        if !real.is_empty() {
            let hits = real.iter().filter(|i| flagged.contains(i)).count();
            found += hits as f64 / real.len() as f64;
        }
    }
    (yes, fdp / n, found / n)
}

#[test]
fn the_verdict_is_calibrated_on_null_archives_and_finds_real_differences() {
    let designs = [
        Design {
            name: "draw-heavy engine event, 2 games per SP (8/86/6)",
            sps: 100,
            games: |_| 2,
            win: 0.08,
            draws: 0.86,
        },
        Design {
            name: "lichess-like 49/4/47, 4 games per SP",
            sps: 960,
            games: |_| 4,
            win: 0.49,
            draws: 0.04,
        },
        Design {
            name: "mixed sizes 1-12 games per SP, 70% draws (17/70/13)",
            sps: 960,
            games: |rng| 1 + rng.below(12),
            win: 0.17,
            draws: 0.70,
        },
    ];
    let slack = binomial_slack(ARCHIVES, ALPHA);
    let mut rng = SplitMix64(24);
    let mut failures = Vec::new();
    for d in &designs {
        let archives: Vec<Analysis> = (0..ARCHIVES)
            .map(|_| {
                let rows: Vec<Wdl> = (0..d.sps)
                    .map(|_| {
                        let n = (d.games)(&mut rng);
                        draw(&mut rng, n, d.win, d.draws)
                    })
                    .collect();
                analyse(&rows)
            })
            .collect();
        let (yes, fdp, _) = rates(&archives, &[]);
        println!("{}: verdict Yes in {yes:.3}, mean FDP {fdp:.3}", d.name);
        if yes * ARCHIVES as f64 > slack as f64 || fdp > ALPHA {
            failures.push(format!("{}: Yes {yes}, FDP {fdp}", d.name));
        }
    }
    // 5 of 30 SPs favour white (90% wins), 40 games each; the others 49/4/47.
    let real = [3usize, 7, 11, 19, 28];
    let archives: Vec<Analysis> = (0..ARCHIVES)
        .map(|_| {
            let rows: Vec<Wdl> = (0..30)
                .map(|i| match real.contains(&i) {
                    true => draw(&mut rng, 40, 0.9, 0.05),
                    false => draw(&mut rng, 40, 0.49, 0.04),
                })
                .collect();
            analyse(&rows)
        })
        .collect();
    let (yes, fdp, found) = rates(&archives, &real);
    println!("5 of 30 SPs at 90% wins: verdict Yes in {yes:.3}, mean FDP {fdp:.3}, real SPs flagged {found:.3}");
    // The flags' FDP here is not the null FDP: the 5 strong SPs lift the pooled score, so
    // the others really do score below the pool (docs/stats.md, calibration).
    if yes < 0.9 || found < 0.9 {
        failures.push(format!("power: Yes {yes}, FDP {fdp}, found {found}"));
    }
    assert!(
        failures.is_empty(),
        "slack {slack} of {ARCHIVES}: {failures:?}"
    );
}

#[test]
fn a_tcec_final_like_archive_says_no() {
    // 25 SPs × 2 games: 2 white wins, 47 draws, 1 black win, each decisive game at its own SP.
    let mut rows = vec![Wdl::new(0, 2, 0); 25];
    rows[3] = Wdl::new(1, 1, 0);
    rows[10] = Wdl::new(1, 1, 0);
    rows[20] = Wdl::new(0, 1, 1);
    let a = analyse(&rows);
    assert!(!a.verdict.differs, "{}", a.verdict.text);
    assert!(a.verdict.text.starts_with("No"), "{}", a.verdict.text);
    // The exact p of a win and a draw at an SP: (1 + 94 + 47)/1225.
    let p = a.tests[3].p.unwrap_or(f64::NAN);
    assert!((p - 142.0 / 1225.0).abs() < 1e-12, "{p}");
    assert!(a.tests.iter().all(|t| t.q.is_some_and(|q| q > 0.5)));
}

/// The W/D/L of every (event, SP) of `stats --by event` on `inputs`.
fn by_event(inputs: &[std::path::PathBuf]) -> BTreeMap<String, Vec<Wdl>> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("by.csv");
    let mut cmd = pgn960();
    cmd.arg("stats")
        .args(inputs)
        .args(["--by", "event", "-o"])
        .arg(&out);
    cmd.assert().code(predicates::ord::le(1));
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (w, d, l) = (col("white_wins"), col("draws"), col("black_wins"));
    let sp = col("sp");
    let mut events: BTreeMap<String, Vec<Wdl>> = BTreeMap::new();
    for line in lines {
        // Event names here have no commas or quotes; the numeric columns are counted from
        // the end so a quoted name would not shift them.
        let fields: Vec<&str> = line.split(',').collect();
        let shift = fields.len() - header.len();
        let get = |i: usize| fields[i + shift].parse::<u64>().unwrap();
        // Long format: the SPs with games of each event; the others are empty rows.
        let table = events
            .entry(fields[0].to_string())
            .or_insert_with(|| vec![Wdl::default(); 960]);
        table[get(sp) as usize] = Wdl::new(get(w), get(d), get(l));
    }
    events
}

#[test]
fn tcec_files_get_a_valid_test_and_a_stratified_answer() {
    let Some(dir) = shared_data_dir() else {
        eprintln!("skipped: no shared data");
        return;
    };
    let mut inputs: Vec<_> = std::fs::read_dir(dir.join("pgn/tcec"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    inputs.sort();
    let events = by_event(&inputs);
    assert!(events.len() >= 2, "{:?}", events.keys());
    let strata: Vec<Vec<Wdl>> = events.into_values().collect();
    let whole: Vec<Wdl> = (0..960)
        .map(|i| {
            strata.iter().fold(Wdl::default(), |a, s| {
                Wdl::new(
                    a.white_wins + s[i].white_wins,
                    a.draws + s[i].draws,
                    a.black_wins + s[i].black_wins,
                )
            })
        })
        .collect();
    let one = analyse(&whole);
    let h = one.homogeneity.expect("a homogeneity test");
    // The table is sparse: the test is the permutation test, with its Monte Carlo error.
    assert_eq!(h.method, "permutation", "{}", one.verdict.text);
    assert!(h.monte_carlo_se.is_some_and(|se| se < 0.02));
    let within = analyse_within(&strata, "event");
    let text = &within.verdict.text;
    println!("one table: {}\nwithin events: {text}", one.verdict.text);
    assert!(text.starts_with("Yes") || text.starts_with("No"), "{text}");
    assert!(text.contains("strata by event"), "{text}");
    assert_eq!(within.homogeneity.map(|h| h.strata > 1), Some(true));
    if one.verdict.differs && !within.verdict.differs {
        assert!(text.contains("Caveat"), "{text}");
    }
    // Within events no SP of an engine event stands out.
    assert!(!within.verdict.differs, "{text}");
}
