//! The report page under its filters, in headless Chromium, against `pgn960 stats` run on
//! the same games: a month (`--since/--until`), a rating band (`--by rating-band`) and an
//! event (`--by event`) give the table, its statistics and the verdict of `stats`; the
//! filtered CSV download equals `stats`'s CSV in the columns the page computes.

use crate::report::{chromium, game, page_data};
use crate::report_page::{download, report};
use crate::util::pgn960;
use pgn960::stats::table::back_rank;
use serde_json::Value;
use std::path::Path;

/// A seeded archive of `n` games over 30 SPs, four months (and some dated by year only),
/// three events, ratings over several bands and three speeds; white scores well at SP 7
/// in event E1, and draws more at SP 40.
fn archive(dir: &Path, n: u32) -> std::path::PathBuf {
    let mut state = 960u64;
    let mut next = |k: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % k
    };
    let mut text = String::new();
    for _ in 0..n {
        let sp = [7u16, 40, 100, 226, 300, 518, 950][next(7) as usize] + 3 * next(4) as u16;
        let event = next(3);
        let roll = next(100);
        let result = match (sp, event) {
            (7, 1) if roll < 80 => "1-0",
            (40, _) if roll < 60 => "1/2-1/2",
            _ if roll < 40 => "1-0",
            _ if roll < 70 => "0-1",
            _ => "1/2-1/2",
        };
        let tc = ["60+0", "180+2", "900+10"][next(3) as usize];
        let elo = 1400 + 100 * next(10) as u32;
        let month = 1 + next(5);
        let date = if month == 5 {
            "2024.??.??".to_string()
        } else {
            format!("2024.{month:02}.{:02}", 1 + next(28))
        };
        let g = game(
            &back_rank(sp),
            "W",
            "B",
            &format!("E{event}"),
            result,
            tc,
            (elo, elo + 50),
        );
        text.push_str(&g.replace("2024.03.09", &date));
    }
    let pgn = dir.join("archive.pgn");
    std::fs::write(&pgn, text).unwrap();
    pgn
}

/// `stats` on `pgn` with `args`: its CSV text and its report (JSON).
fn stats(pgn: &Path, args: &[&str], dir: &Path, name: &str) -> (String, Value) {
    let csv = dir.join(format!("{name}.csv"));
    let json = dir.join(format!("{name}.json"));
    pgn960()
        .arg("stats")
        .arg(pgn)
        .args(args)
        .arg("-o")
        .arg(&csv)
        .arg("--report")
        .arg(&json)
        .assert()
        .success();
    let report = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (std::fs::read_to_string(&csv).unwrap(), report)
}

/// The columns the page's filtered CSV has, in its order.
const COLUMNS: [&str; 12] = [
    "sp",
    "start",
    "games",
    "white_wins",
    "draws",
    "black_wins",
    "white_score",
    "draw_rate",
    "white_score_lo",
    "white_score_hi",
    "p_value",
    "q_value",
];

/// Those columns of a `stats` CSV, for the rows whose key columns `key` (name, value)
/// hold (none without --by), as CSV text.
fn columns_of(csv: &str, key: &[(&str, &str)]) -> String {
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header = reader.headers().unwrap().clone();
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    let mut out = vec![COLUMNS.join(",")];
    for record in reader.records() {
        let record = record.unwrap();
        if key.iter().all(|(k, v)| &record[at(k)] == *v) {
            let fields: Vec<&str> = COLUMNS.iter().map(|c| &record[at(c)]).collect();
            out.push(fields.join(","));
        }
    }
    out.join("\n") + "\n"
}

/// Text of the element `id` in a dumped DOM (entities of text nodes decoded).
fn text_of(dom: &str, id: &str) -> Option<String> {
    let at = dom.find(&format!("id=\"{id}\""))?;
    let start = at + dom[at..].find('>')? + 1;
    let end = start + dom[start..].find("</")?;
    Some(
        dom[start..end]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&nbsp;", "\u{a0}")
            .replace("&amp;", "&"),
    )
}

/// The verdict the page shows under a filter, caveat included, as one sentence.
fn shown_verdict(dom: &str) -> String {
    let mut text = text_of(dom, "filtered-verdict").expect("the filtered verdict");
    if let Some(caveat) = text_of(dom, "filtered-caveat") {
        text.push_str(&caveat);
    }
    text
}

/// The page at `fragment` against `stats` with `args`, in the cell `key`: the table's
/// columns (from the filtered download) and the verdict.
fn check(test: &str, page: &Path, fragment: &str, want: (&str, &Value), key: &[(&str, &str)]) {
    let Some(seen) = chromium(test, page, fragment) else {
        return;
    };
    assert!(seen.page_requests.is_empty(), "{:?}", seen.page_requests);
    let mut csv = String::from_utf8(download(&seen.dom, "download-filtered-csv")).unwrap();
    if !key.is_empty() {
        // A cell of `stats --by` lists the SPs with games only.
        csv = csv
            .lines()
            .filter(|l| l.split(',').nth(2) != Some("0"))
            .map(|l| format!("{l}\n"))
            .collect();
    }
    let want_csv = columns_of(want.0, key);
    for (got, wanted) in csv.lines().zip(want_csv.lines()) {
        assert_eq!(got, wanted, "{fragment}: a row of the filtered CSV");
    }
    assert_eq!(
        csv.lines().count(),
        want_csv.lines().count(),
        "{fragment}: rows"
    );
    let cells = want.1["significance"].as_array().unwrap();
    let cell = cells
        .iter()
        .find(|c| {
            let k = c["key"].as_object().unwrap();
            k.len() == key.len() && key.iter().all(|(name, value)| k[*name] == *value)
        })
        .expect("the cell's report");
    assert_eq!(
        shown_verdict(&seen.dom),
        cell["verdict"].as_str().unwrap(),
        "{fragment}: the verdict"
    );
}

#[test]
fn report_filters_give_the_table_and_verdict_of_stats() {
    const TEST: &str = "report_filters_give_the_table_and_verdict_of_stats";
    let dir = tempfile::tempdir().unwrap();
    let pgn = archive(dir.path(), 1500);
    let page = dir.path().join("page.html");
    report(&[&pgn], &[], &page);
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    assert_eq!(data["filter"]["strata"], "event");
    assert_eq!(
        data["filter"]["events"],
        serde_json::json!(["E0", "E1", "E2"])
    );
    // One month.
    let (csv, json) = stats(
        &pgn,
        &["--since", "2024.02.01", "--until", "2024.02.31"],
        dir.path(),
        "february",
    );
    check(TEST, &page, "#from=2024-02&to=2024-02", (&csv, &json), &[]);
    // A rating band: the band's cell of --by rating-band.
    let (csv, json) = stats(&pgn, &["--by", "rating-band"], dir.path(), "bands");
    check(
        TEST,
        &page,
        "#band=1800-1999",
        (&csv, &json),
        &[("rating_band", "1800-1999")],
    );
    // An event (one stratum: "Not stratified"), and the event where SP 7 stands out.
    let (csv, json) = stats(&pgn, &["--by", "event"], dir.path(), "events");
    for event in ["E0", "E1"] {
        let fragment = format!("#event={event}");
        check(TEST, &page, &fragment, (&csv, &json), &[("event", event)]);
    }
    // Months and a speed together, within events.
    let (csv, json) = stats(
        &pgn,
        &[
            "--since",
            "2024.01.01",
            "--until",
            "2024.03.31",
            "--time-control",
            "blitz",
        ],
        dir.path(),
        "spring",
    );
    check(
        TEST,
        &page,
        "#from=2024-01&to=2024-03&speed=blitz",
        (&csv, &json),
        &[],
    );
    // The page with --strata none tests one table, as stats --strata none.
    let one = dir.path().join("one.html");
    report(&[&pgn], &["--strata", "none"], &one);
    let (csv, json) = stats(
        &pgn,
        &[
            "--since",
            "2024.04.01",
            "--until",
            "2024.04.31",
            "--strata",
            "none",
        ],
        dir.path(),
        "april",
    );
    check(TEST, &one, "#from=2024-04&to=2024-04", (&csv, &json), &[]);
    // With --strata time-control, within speeds: an event's cell of stats --by event.
    let speeds = dir.path().join("speeds.html");
    report(&[&pgn], &["--strata", "time-control"], &speeds);
    let (csv, json) = stats(
        &pgn,
        &["--by", "event", "--strata", "time-control"],
        dir.path(),
        "by-speed",
    );
    check(
        TEST,
        &speeds,
        "#event=E1",
        (&csv, &json),
        &[("event", "E1")],
    );
}
