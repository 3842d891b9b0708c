//! `pgn960 report`: the page's data against independent counts, and the page itself in a
//! real browser (headless Chromium, from a file:// URL, fetching nothing): 960 rows,
//! sorting and `#sp=N` through the URL, hostile archive text shown as text.

use crate::util::{pgn960, shared_data};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The JSON data block of a page.
pub(crate) fn page_data(html: &str) -> Value {
    let open = "<script type=\"application/json\" id=\"data\">";
    let start = html.find(open).expect("data block") + open.len();
    let end = start + html[start..].find("</script>").expect("end of data block");
    serde_json::from_str(&html[start..end]).expect("data block is JSON")
}

/// A game of SP `sp` (its back rank `rank`) with these names and result.
pub(crate) fn game(
    rank: &str,
    white: &str,
    black: &str,
    event: &str,
    result: &str,
    tc: &str,
    elo: (u32, u32),
) -> String {
    let fen = format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w KQkq - 0 1",
        rank.to_ascii_lowercase(),
        rank
    );
    format!(
        "[Event \"{event}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
         [WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n[TimeControl \"{tc}\"]\n[Date \"2024.03.09\"]\n\
         [Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. a3 a6 2. h3 h6 {result}\n\n",
        elo.0, elo.1
    )
}

/// Hostile names, written into tags as PGN escapes them.
const HOSTILE_WHITE: &str = "<script>alert(1)</script>";
const HOSTILE_BLACK: &str = "\\\"><img src=x onerror=alert(2)>";
const HOSTILE_EVENT: &str = "<img src=x onerror=alert(3)>";

/// A small archive: SP 226 (BNRQKBNR, back rank from python-chess) with 5 games, SP 518
/// with 3, SP 0 with 1; hostile player and event names.
pub(crate) fn archive(dir: &Path) -> PathBuf {
    let mut text = String::new();
    for (i, result) in ["1-0", "1-0", "1/2-1/2", "0-1", "1-0"].iter().enumerate() {
        let tc = if i < 3 { "180+2" } else { "600+0" };
        text.push_str(&game(
            "BNRQKBNR",
            HOSTILE_WHITE,
            HOSTILE_BLACK,
            HOSTILE_EVENT,
            result,
            tc,
            (1850, 1900),
        ));
    }
    for result in ["0-1", "1/2-1/2", "1-0"] {
        text.push_str(&game(
            "RNBQKBNR",
            "Alice",
            "Bob",
            "Club",
            result,
            "60+0",
            (2100, 2000),
        ));
    }
    text.push_str(&game(
        "BBQNNRKR",
        "Carol",
        "Dan",
        "Club",
        "1/2-1/2",
        "60+0",
        (1500, 1500),
    ));
    let path = dir.join("games.pgn");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn report_counts_cuts_and_matches_from_stats() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = archive(dir.path());
    let page = dir.path().join("page.html");
    pgn960()
        .arg("report")
        .arg(&pgn)
        .arg("-o")
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    let data = page_data(&html);
    let sps = data["sps"].as_array().unwrap();
    assert_eq!(sps.len(), 960);
    let row = &sps[226];
    assert_eq!(row["start"], "BNRQKBNR");
    assert_eq!(
        (
            row["games"].as_u64(),
            row["w"].as_u64(),
            row["d"].as_u64(),
            row["l"].as_u64()
        ),
        (Some(5), Some(3), Some(1), Some(1))
    );
    assert_eq!(row["score"].as_f64(), Some(0.7));
    assert_eq!(sps[518]["games"].as_u64(), Some(3));
    assert_eq!(data["summary"]["archive"]["games_read"].as_u64(), Some(9));
    assert_eq!(data["summary"]["counted"].as_u64(), Some(9));
    assert_eq!(data["summary"]["first_date"], "2024.03.09");
    // Cuts: 180+2 is blitz, 600+0 rapid, 60+0 bullet (lichess boundaries); bands of 200.
    let cuts = data["cuts"].as_array().unwrap();
    assert_eq!(cuts[0]["key"], "time_control");
    let values: Vec<&str> = cuts[0]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["value"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["bullet", "blitz", "rapid"]);
    let blitz = &cuts[0]["values"][1]["rows"][0];
    assert_eq!(
        blitz.as_array().unwrap()[..4],
        serde_json::json!([226, 2, 1, 0]).as_array().unwrap()[..]
    );
    let bands: Vec<&str> = cuts[1]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["value"].as_str().unwrap())
        .collect();
    assert_eq!(bands, ["1400-1599", "1800-1999", "2000-2199"]);
    // The names arrive as data, and the HTML never holds them unescaped.
    let players: Vec<&str> = data["summary"]["top_players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[0].as_str().unwrap())
        .collect();
    assert!(
        players.contains(&HOSTILE_WHITE) && players.contains(&"\"><img src=x onerror=alert(2)>"),
        "{players:?}"
    );
    assert!(!html.contains("<img") && !html.contains("<script>alert"));
    assert_eq!(html.matches("</script>").count(), 2);

    // The same page data from the tables of `stats`.
    let csv = dir.path().join("stats.csv");
    pgn960()
        .arg("stats")
        .arg(&pgn)
        .arg("-o")
        .arg(&csv)
        .assert()
        .success();
    let from_tables = dir.path().join("tables.html");
    pgn960()
        .arg("report")
        .arg("--from-stats")
        .arg(&csv)
        .arg("-o")
        .arg(&from_tables)
        .assert()
        .success();
    let other = page_data(&std::fs::read_to_string(&from_tables).unwrap());
    // Tables keep no strata: the page from them equals the page of the games tested as one
    // table (--strata none); the default page tests within events and says so.
    let verdict = data["overview"]["verdict"].as_str().unwrap();
    assert!(verdict.contains("strata by event"), "{verdict}");
    let one_table = dir.path().join("one-table.html");
    pgn960()
        .arg("report")
        .arg(&pgn)
        .args(["--strata", "none", "-o"])
        .arg(&one_table)
        .assert()
        .success();
    let data = page_data(&std::fs::read_to_string(&one_table).unwrap());
    assert_eq!(other["sps"], data["sps"]);
    assert_eq!(other["overview"], data["overview"]);
    assert_eq!(other["funnel"], data["funnel"]);
    assert_eq!(other["groups"], data["groups"]);
    assert_eq!(other["groups_csv"], data["groups_csv"]);
    assert_eq!(other["draws"], data["draws"]);
    assert_eq!(other["summary"]["from_tables"], true);
    assert_eq!(other["cuts"], serde_json::json!([]));
    // The cuts from a table of `stats --by time-control,rating-band` (crossed: the page
    // sums it per key) are the cuts counted in the pass over the games.
    let by = dir.path().join("by.csv");
    pgn960()
        .args(["stats", "--by", "time-control,rating-band"])
        .arg(&pgn)
        .arg("-o")
        .arg(&by)
        .assert()
        .success();
    let from_by = dir.path().join("by.html");
    pgn960()
        .arg("report")
        .arg("--from-stats")
        .arg(&by)
        .arg("--from-stats")
        .arg(&csv)
        .arg("-o")
        .arg(&from_by)
        .assert()
        .success();
    let other = page_data(&std::fs::read_to_string(&from_by).unwrap());
    assert_eq!(other["cuts"], data["cuts"]);
    assert_eq!(other["sps"], data["sps"]);
    assert_eq!(other["tree"], Value::Null);
    // The tree from the JSON of `pgn960 tree` is the tree counted in the pass.
    let tree = dir.path().join("tree.json");
    pgn960()
        .args(["tree", "--depth", "4"])
        .arg(&pgn)
        .arg("-o")
        .arg(&tree)
        .assert()
        .success();
    let with_tree = dir.path().join("tree.html");
    pgn960()
        .arg("report")
        .arg("--from-stats")
        .arg(&csv)
        .arg("--from-tree")
        .arg(&tree)
        .arg("-o")
        .arg(&with_tree)
        .assert()
        .success();
    let other = page_data(&std::fs::read_to_string(&with_tree).unwrap());
    assert_eq!(other["tree"], data["tree"]);
    let first = &data["tree"]["roots"]["226"][0];
    assert_eq!(
        first,
        &serde_json::json!([
            "a3",
            "a2a3",
            5,
            3,
            1,
            1,
            [[
                "a6",
                "a7a6",
                5,
                3,
                1,
                1,
                [["h3", "h2h3", 5, 3, 1, 1, [["h6", "h7h6", 5, 3, 1, 1, []]]]]
            ]]
        ])
    );
    // A table of other games is refused.
    let other_csv = dir.path().join("other.csv");
    let one = dir.path().join("one.pgn");
    std::fs::write(
        &one,
        game("RNBQKBNR", "A", "B", "E", "1-0", "60+0", (1500, 1500)),
    )
    .unwrap();
    pgn960()
        .arg("stats")
        .arg(&one)
        .arg("-o")
        .arg(&other_csv)
        .assert()
        .success();
    pgn960()
        .arg("report")
        .arg("--from-stats")
        .arg(&csv)
        .arg("--from-stats")
        .arg(&other_csv)
        .arg("-o")
        .arg(dir.path().join("bad.html"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "other.csv: its counts per SP differ",
        ));
    assert!(!dir.path().join("bad.html").exists());
}

/// What headless Chromium saw of a page: its DOM after the script ran, and the URLs the
/// page asked for (from Chromium's net log: requests whose initiator is the page, not the
/// browser's own background requests, which it marks "not an origin").
pub(crate) struct Browsed {
    pub dom: String,
    pub page_requests: Vec<String>,
}

/// Opens `page` with `fragment` in headless Chromium with the network cut off (no host
/// resolves); `None` (a visible skip, a failure under CI) without Chromium.
pub(crate) fn chromium(test: &str, page: &Path, fragment: &str) -> Option<Browsed> {
    chromium_with(test, page, fragment, &[])
}

/// [`chromium`] with more command-line flags.
pub(crate) fn chromium_with(
    test: &str,
    page: &Path,
    fragment: &str,
    flags: &[&str],
) -> Option<Browsed> {
    let chromium = test_support::program(
        test,
        &["chromium", "chromium-browser"],
        "apt-get install -y chromium",
    )?;
    let profile = tempfile::tempdir().unwrap();
    let net_log = profile.path().join("net-log.json");
    let url = format!(
        "file://{}{fragment}",
        page.canonicalize().unwrap().display()
    );
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ])
        .arg(format!(
            "--user-data-dir={}",
            profile.path().join("profile").display()
        ))
        .arg(format!("--log-net-log={}", net_log.display()))
        .args(flags)
        .arg("--virtual-time-budget=5000")
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&net_log).unwrap()).unwrap();
    let start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"].clone();
    assert!(start_job.is_u64(), "the net log names its event types");
    let page_requests = log["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == start_job && e["params"]["url"].is_string())
        .filter(|e| e["params"]["initiator"] != "not an origin")
        .map(|e| e["params"]["url"].as_str().unwrap().to_string())
        .collect();
    Some(Browsed {
        dom: String::from_utf8(out.stdout).expect("UTF-8 DOM"),
        page_requests,
    })
}

/// The SPs of the table's rows in DOM order, with whether each is hidden.
pub(crate) fn table_rows(dom: &str) -> Vec<(u16, bool)> {
    let table = &dom[dom.find("id=\"sp-table\"").expect("the SP table")..];
    let body = &table[table.find("<tbody>").expect("tbody")..];
    let body = &body[..body.find("</tbody>").expect("end of tbody")];
    body.split("<tr ")
        .skip(1)
        .map(|tr| {
            let tag = &tr[..tr.find('>').unwrap()];
            let sp = tag.split("data-sp=\"").nth(1).unwrap();
            let sp = sp[..sp.find('"').unwrap()].parse().unwrap();
            (sp, tag.contains(" hidden"))
        })
        .collect()
}

#[test]
fn report_page_works_in_chromium() {
    const TEST: &str = "report_page_works_in_chromium";
    let dir = tempfile::tempdir().unwrap();
    let pgn = archive(dir.path());
    let page = dir.path().join("page.html");
    pgn960()
        .arg("report")
        .arg(&pgn)
        .arg("-o")
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    // Nothing to fetch: the only http(s) text is the SVG namespace, the policy forbids
    // every fetch and allows no inline code but the page's own (by hash).
    // (`url(#…)` in the script are references inside the page's own SVG.)
    for (i, _) in html.match_indices(":/") {
        let around = &html[i.saturating_sub(8)..(i + 24).min(html.len())];
        assert!(
            html[..i].ends_with("\"http") && html[i..].starts_with("://www.w3.org/2000/svg\""),
            "a URL in the page: {around:?}"
        );
    }
    assert!(
        !html.contains("url(") || html.matches("url(").count() == html.matches("url(#").count()
    );
    assert!(html.contains("content=\"default-src 'none'; script-src 'sha256-"));
    assert!(!html.contains("unsafe-inline") && !html.contains("unsafe-eval"));

    // The net log sees what a page fetches: a page that asks for an image and a URL does.
    let control = dir.path().join("control.html");
    std::fs::write(&control, "<!DOCTYPE html><img src=\"http://example.invalid/x.png\"><script>fetch('https://example.invalid/y')</script>").unwrap();
    let Some(seen) = chromium(TEST, &control, "") else {
        return;
    };
    assert!(
        seen.page_requests
            .iter()
            .any(|u| u.contains("example.invalid")),
        "{:?}",
        seen.page_requests
    );

    let seen = chromium(TEST, &page, "#sp=226&sort=-games").unwrap();
    assert_eq!(
        seen.page_requests,
        Vec::<String>::new(),
        "the page asked for something"
    );
    let dom = seen.dom;
    // The script ran under the policy (its hash is right) and drew the table.
    assert!(
        dom.contains("data-ready=\"1\""),
        "the page's script did not run"
    );
    let rows = table_rows(&dom);
    assert_eq!(rows.len(), 960);
    // Sorted by games, most first, ties by SP: 226 (5), 518 (3), 0 (1), then 1, 2, ...
    let order: Vec<u16> = rows.iter().take(5).map(|r| r.0).collect();
    assert_eq!(order, [226, 518, 0, 1, 2]);
    assert!(
        dom.contains("<th scope=\"col\" data-key=\"games\" aria-sort=\"descending\">"),
        "aria-sort"
    );
    // The panel of SP 226: its back rank, W/D/L, and the cut by time control.
    let panel = &dom[dom.find("<section id=\"panel\"").expect("panel")..];
    let panel = &panel[..panel.find("</section>").unwrap()];
    assert!(
        panel.starts_with("<section id=\"panel\" aria-labelledby=\"panel-h\" data-sp=\"226\">"),
        "{}",
        &panel[..200.min(panel.len())]
    );
    assert!(panel.contains("SP 226: BNRQKBNR"));
    assert!(panel.contains("3 / 1 / 1"));
    assert!(panel.contains("aria-label=\"Start position: white B N R Q K B N R"));
    assert!(panel.contains("<td class=\"text\">blitz</td>"));
    // Hostile names are text: escaped in the serialised DOM, no element injected.
    assert!(dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(dom.contains("\"&gt;&lt;img src=x onerror=alert(2)&gt;"));
    assert!(dom.contains("&lt;img src=x onerror=alert(3)&gt;"));
    assert!(!dom.contains("<img"), "an element was injected");

    // Ascending by score (no-game SPs last), and the filter by SP number.
    let dom = chromium(TEST, &page, "#sort=score").unwrap().dom;
    let rows = table_rows(&dom);
    let order: Vec<u16> = rows.iter().take(4).map(|r| r.0).collect();
    assert_eq!(
        order,
        [0, 518, 226, 1],
        "0.5 (SP 0), 0.5 (518), 0.7 (226), then no games"
    );
    let dom = chromium(TEST, &page, "#q=518").unwrap().dom;
    let shown: Vec<u16> = table_rows(&dom)
        .iter()
        .filter(|r| !r.1)
        .map(|r| r.0)
        .collect();
    assert_eq!(shown, [518]);
}

#[test]
fn report_names_an_sp_only_when_its_q_value_says_so() {
    const TEST: &str = "report_names_an_sp_only_when_its_q_value_says_so";
    // SP 0 (BBQNNRKR): 60 white wins; SPs 1-10: 30 wins and 30 losses each. SP 0's z is
    // about 7.4 against the pool: q far below 0.05. SP 1 (BQNBNRKR) is not named.
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for _ in 0..60 {
        text.push_str(&game(
            "BBQNNRKR",
            "A",
            "B",
            "E",
            "1-0",
            "180+0",
            (1500, 1500),
        ));
    }
    let ranks = [
        "BQNBNRKR", "BQNNRBKR", "BQNNRKRB", "QBBNNRKR", "QNBBNRKR", "QNBNRBKR", "QNBNRKRB",
        "QBNNBRKR", "QNNBBRKR", "QNNRBBKR",
    ];
    for rank in ranks {
        for result in ["1-0", "0-1"].repeat(30) {
            text.push_str(&game(rank, "A", "B", "E", result, "180+0", (1500, 1500)));
        }
    }
    let pgn = dir.path().join("outlier.pgn");
    std::fs::write(&pgn, text).unwrap();
    let page = dir.path().join("outlier.html");
    pgn960()
        .arg("report")
        .arg(&pgn)
        .arg("-o")
        .arg(&page)
        .assert()
        .success();
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    let named: Vec<u64> = data["sps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["q"].as_f64().is_some_and(|q| q < 0.05))
        .map(|r| r["sp"].as_u64().unwrap())
        .collect();
    assert_eq!(named, [0]);
    let Some(seen) = chromium(TEST, &page, "") else {
        return;
    };
    let chart = &seen.dom[seen.dom.find("<section id=\"funnel\"").unwrap()..];
    let chart = &chart[..chart.find("</section>").unwrap()];
    assert!(
        chart.contains(">SP 0 BBQNNRKR (1.000, q = "),
        "SP 0 is named on the chart"
    );
    assert!(
        chart.contains("Outliers at q &lt; 0.05: SP 0<"),
        "and in its description"
    );
    // Labels are the chart's bold texts (each dot's tooltip names its SP too).
    assert_eq!(
        chart.matches("font-weight=\"700\"").count(),
        1,
        "no other SP is named"
    );
    assert!(seen
        .dom
        .contains("<tr data-sp=\"0\" tabindex=\"-1\" class=\"sig\">"));
    assert_eq!(seen.dom.matches("class=\"sig\"").count(), 1);
    // The fixture without an outlier: none named, and the page says so.
    let quiet = dir.path().join("quiet.html");
    let plain = archive(dir.path());
    pgn960()
        .arg("report")
        .arg(&plain)
        .arg("-o")
        .arg(&quiet)
        .assert()
        .success();
    let seen = chromium(TEST, &quiet, "").unwrap();
    assert!(seen
        .dom
        .contains("No start position stands out: every q-value is at least 0.05"));
    assert!(!seen.dom.contains("class=\"sig\""));
}

#[test]
fn report_on_the_corpus_matches_its_truth() {
    let Some(corpus) = shared_data(
        "report_on_the_corpus_matches_its_truth",
        "corpus/lichess-style-4000.pgn",
    ) else {
        return;
    };
    let truth = corpus.with_file_name("lichess-style-4000.truth.jsonl");
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("corpus.html");
    pgn960()
        .arg("report")
        .arg(&corpus)
        .arg("-o")
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.len() < 2_000_000, "{} bytes", html.len());
    let data = page_data(&html);
    // W/D/L per SP from the generator's truth file.
    let mut want: BTreeMap<u64, [u64; 3]> = BTreeMap::new();
    for line in std::fs::read_to_string(truth).unwrap().lines() {
        let g: Value = serde_json::from_str(line).unwrap();
        let slot = match g["result"].as_str().unwrap() {
            "1-0" => 0,
            "1/2-1/2" => 1,
            _ => 2,
        };
        want.entry(g["sp"].as_u64().unwrap()).or_default()[slot] += 1;
    }
    for row in data["sps"].as_array().unwrap() {
        let sp = row["sp"].as_u64().unwrap();
        let got = [
            row["w"].as_u64().unwrap(),
            row["d"].as_u64().unwrap(),
            row["l"].as_u64().unwrap(),
        ];
        assert_eq!(got, want.get(&sp).copied().unwrap_or_default(), "SP {sp}");
    }
    assert_eq!(data["overview"]["games"].as_u64(), Some(4000));
    // The depth-4 tree from the truth's UCI moves: every node with its games and W/D/L.
    let mut nodes: BTreeMap<(u64, String), [u64; 4]> = BTreeMap::new();
    for line in std::fs::read_to_string(corpus.with_file_name("lichess-style-4000.truth.jsonl"))
        .unwrap()
        .lines()
    {
        let g: Value = serde_json::from_str(line).unwrap();
        let slot = match g["result"].as_str().unwrap() {
            "1-0" => 1,
            "1/2-1/2" => 2,
            _ => 3,
        };
        let moves: Vec<&str> = g["moves_uci"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        for ply in 1..=moves.len().min(4) {
            let n = nodes
                .entry((g["sp"].as_u64().unwrap(), moves[..ply].join(" ")))
                .or_default();
            n[0] += 1;
            n[slot] += 1;
        }
    }
    fn walk(sp: u64, path: &str, node: &Value, out: &mut BTreeMap<(u64, String), [u64; 4]>) {
        let n = node.as_array().unwrap();
        let path = if path.is_empty() {
            n[1].as_str().unwrap().to_string()
        } else {
            format!("{path} {}", n[1].as_str().unwrap())
        };
        let counts = [2, 3, 4, 5].map(|i| n[i].as_u64().unwrap());
        assert!(out.insert((sp, path.clone()), counts).is_none());
        for kid in n[6].as_array().unwrap() {
            walk(sp, &path, kid, out);
        }
    }
    let mut got = BTreeMap::new();
    for (sp, roots) in data["tree"]["roots"].as_object().unwrap() {
        for node in roots.as_array().unwrap() {
            walk(sp.parse().unwrap(), "", node, &mut got);
        }
    }
    assert_eq!(got.len(), nodes.len());
    assert!(
        got == nodes,
        "the page's tree differs from the truth's moves"
    );
}

#[test]
fn a_page_of_tag_only_games_says_why_nothing_was_counted_as_stats_does() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("tags.pgn");
    let game = "[Event \"x\"]\n[Variant \"Chess960\"]\n[Result \"1-0\"]\n\
        [FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n";
    std::fs::write(&pgn, game.repeat(3)).unwrap();
    let run = |command: &str, out: &str| {
        let run = pgn960()
            .arg(command)
            .arg(&pgn)
            .arg("-o")
            .arg(dir.path().join(out))
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(1), "{command}");
        let err = String::from_utf8_lossy(&run.stderr).into_owned();
        let line = err
            .lines()
            .find(|l| l.starts_with("nothing was counted"))
            .unwrap_or_else(|| panic!("{command}: {err}"))
            .to_string();
        line
    };
    let page = run("report", "page.html");
    assert!(
        page.contains("have no moves (tags only): try --headers-only"),
        "{page}"
    );
    assert_eq!(page, run("stats", "s.csv"));
}
