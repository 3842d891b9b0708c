//! `pgn960 report`'s views of issue 30's second half: the SPs grouped by features of their
//! back rank (membership against python-chess's back ranks, the homogeneity test against
//! scipy), the draw rates (intervals against statsmodels), and the filters applied to the
//! groups and to the Double Chess960 pairs, in headless Chromium, against
//! `pgn960 stats --since/--until` and the library's own groups of the filtered games.

use crate::report::{archive, chromium, game, page_data, table_rows};
use crate::report_page::{download, narrow, report, stats_csv};
use crate::util::python;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Per SP (0..959) its back rank from python-chess, its mirror image (the SP whose back
/// rank is the reverse), and the label of its group under each feature, the bishops'
/// square colours read from python-chess's dark squares.
const GROUP_ORACLE: &str = r#"
import chess, json
ranks = []
for n in range(960):
    b = chess.Board.from_chess960_pos(n)
    ranks.append("".join(b.piece_at(chess.square(f, 0)).symbol() for f in range(8)))
index = {r: n for n, r in enumerate(ranks)}
mirror = [index[r[::-1]] for r in ranks]
files = "abcdefgh"
def dark(f):
    return bool(chess.BB_DARK_SQUARES & chess.BB_SQUARES[chess.square(f, 0)])
groups = []
for n, r in enumerate(ranks):
    bishops = [f for f, c in enumerate(r) if c == "B"]
    d = [f for f in bishops if dark(f)][0]
    l = [f for f in bishops if not dark(f)][0]
    knights = [files[f] for f, c in enumerate(r) if c == "N"]
    lo, hi = min(n, mirror[n]), max(n, mirror[n])
    groups.append({
        "king-file": files[r.index("K")],
        "bishops": files[d] + ", " + files[l],
        "queen-file": files[r.index("Q")],
        "knights": ", ".join(knights),
        "mirror": "%d / %d" % (lo, hi),
    })
print(json.dumps({"ranks": ranks, "mirror": mirror, "groups": groups}))
"#;

/// scipy's chi-square test of homogeneity (no continuity correction) of the tables given as
/// JSON in argv[1], over the rows with games and the columns that occur, as `stats` runs it.
const CHI2_ORACLE: &str = r#"
import json, sys
from scipy.stats import chi2_contingency
out = []
for table in json.loads(open(sys.argv[1]).read()):
    rows = [r for r in table if sum(r) > 0]
    cols = [c for c in range(len(rows[0])) if sum(r[c] for r in rows) > 0]
    chi2, p, df, _ = chi2_contingency([[r[c] for c in cols] for r in rows], correction=False)
    out.append([chi2, p, df])
print(json.dumps(out))
"#;

/// statsmodels' 95% Wilson intervals of the proportions [k, n] in argv[1].
const WILSON_ORACLE: &str = r#"
import json, sys
from statsmodels.stats.proportion import proportion_confint
pairs = json.loads(open(sys.argv[1]).read())
print(json.dumps([list(proportion_confint(k, n, alpha=0.05, method="wilson")) for k, n in pairs]))
"#;

/// The oracle's answer: back ranks, mirrors, group labels per SP.
struct Oracle {
    ranks: Vec<String>,
    mirror: Vec<u64>,
    groups: Vec<BTreeMap<String, String>>,
}

fn oracle(py: &str) -> Oracle {
    let v: Value = serde_json::from_str(&python(py, GROUP_ORACLE, &[])).unwrap();
    Oracle {
        ranks: serde_json::from_value(v["ranks"].clone()).unwrap(),
        mirror: serde_json::from_value(v["mirror"].clone()).unwrap(),
        groups: serde_json::from_value(v["groups"].clone()).unwrap(),
    }
}

/// Games on 60 SPs spread over the king's files, with results that differ by the king's
/// file, in March to May 2024 and two events.
fn grouped_archive(dir: &Path, ranks: &[String]) -> std::path::PathBuf {
    let mut text = String::new();
    for i in 0..60usize {
        let sp = (i * 97 + 5) % 960;
        let rank = &ranks[sp];
        let king = rank.find('K').unwrap();
        for j in 0..10usize {
            let result = match (king + j) % 5 {
                0 | 1 => "1-0",
                2 => "0-1",
                _ => "1/2-1/2",
            };
            let g = game(
                rank,
                "W",
                "B",
                &format!("E{}", j % 2),
                result,
                ["60+0", "180+2", "600+0"][j % 3],
                (1500 + 40 * j as u32, 1700),
            );
            let date = format!("2024.{:02}.{:02}", 3 + (i + j) % 3, 1 + j);
            text.push_str(&g.replace("2024.03.09", &date));
        }
    }
    let path = dir.join("grouped.pgn");
    std::fs::write(&path, text).unwrap();
    path
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap()
}

fn wdl(row: &Value, keys: [&str; 3]) -> [u64; 3] {
    keys.map(|k| u(&row[k]))
}

#[test]
fn report_groups_sps_as_python_chess_and_tests_them_as_scipy() {
    const TEST: &str = "report_groups_sps_as_python_chess_and_tests_them_as_scipy";
    let Some(py) = test_support::python_with(TEST, &["chess", "scipy", "statsmodels"]) else {
        return;
    };
    let truth = oracle(&py);
    assert_eq!(truth.ranks[518], "RNBQKBNR");
    assert_eq!(truth.ranks[truth.mirror[518] as usize], "RNBKQBNR");
    let dir = tempfile::tempdir().unwrap();
    let pgn = grouped_archive(dir.path(), &truth.ranks);
    let page = dir.path().join("groups.html");
    report(&[&pgn], &["--strata", "none"], &page);
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    let sps = data["sps"].as_array().unwrap();
    let groups = data["groups"].as_array().unwrap();
    let features: Vec<&str> = groups
        .iter()
        .map(|g| g["feature"].as_str().unwrap())
        .collect();
    assert_eq!(
        features,
        ["king-file", "bishops", "queen-file", "knights", "mirror"]
    );
    let mut tables = Vec::new();
    for table in groups {
        let feature = table["feature"].as_str().unwrap();
        let mut seen = BTreeSet::new();
        for row in table["rows"].as_array().unwrap() {
            let label = row["group"].as_str().unwrap();
            let members: BTreeSet<u64> = row["sps"].as_array().unwrap().iter().map(u).collect();
            let want: BTreeSet<u64> = (0..960u64)
                .filter(|&n| truth.groups[n as usize][feature] == label)
                .collect();
            assert_eq!(members, want, "{feature} {label}: its SPs");
            seen.extend(members.iter().copied());
            let mut sum = [0u64; 3];
            for &sp in &members {
                for (s, x) in sum.iter_mut().zip(wdl(&sps[sp as usize], ["w", "d", "l"])) {
                    *s += x;
                }
            }
            assert_eq!(
                wdl(row, ["white_wins", "draws", "black_wins"]),
                sum,
                "{feature} {label}: the sums of its SPs"
            );
        }
        assert_eq!(seen.len(), 960, "{feature}: every SP in one group");
        if feature == "king-file" {
            let score: Vec<[u64; 3]> = table["rows"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| wdl(r, ["white_wins", "draws", "black_wins"]))
                .collect();
            let draws: Vec<[u64; 3]> = score.iter().map(|[w, d, l]| [*d, 0, w + l]).collect();
            tables.push((table["homogeneity"].clone(), score));
            tables.push((table["draw_homogeneity"].clone(), draws));
        }
    }
    // Mirror pairs: each SP with the SP of its reversed back rank.
    let mirror = &groups[4]["rows"];
    for row in mirror.as_array().unwrap() {
        let pair: Vec<u64> = row["sps"].as_array().unwrap().iter().map(u).collect();
        assert_eq!(truth.mirror[pair[0] as usize], pair[1]);
    }
    assert!(groups[4]["within_pairs"].is_object());
    // The homogeneity tests across the king's files (chi-square law: Cochran's rule
    // holds with 600 games in 6 groups) against scipy.
    let input = dir.path().join("tables.json");
    let json: Vec<&Vec<[u64; 3]>> = tables.iter().map(|t| &t.1).collect();
    std::fs::write(&input, serde_json::to_string(&json).unwrap()).unwrap();
    let want: Vec<[f64; 3]> = serde_json::from_str(&python(&py, CHI2_ORACLE, &[&input])).unwrap();
    for ((test, _), [chi2, p, df]) in tables.iter().zip(want) {
        assert_eq!(test["method"], "chi-square", "{test}");
        assert!((test["chi2"].as_f64().unwrap() - chi2).abs() <= 1e-9 * chi2.max(1.0));
        assert!(
            (test["p"].as_f64().unwrap() - p).abs() <= 1e-9 + 1e-6 * p,
            "{test} {p}"
        );
        assert_eq!(test["df"].as_f64(), Some(df));
    }
    // The draw rate's Wilson intervals, per SP and per group, against statsmodels.
    let mut rows: Vec<(&Value, [&str; 2], u64, u64)> = Vec::new();
    for r in sps.iter().filter(|r| u(&r["games"]) > 0) {
        rows.push((r, ["draw_lo", "draw_hi"], u(&r["d"]), u(&r["games"])));
    }
    for r in groups[0]["rows"].as_array().unwrap() {
        if u(&r["games"]) > 0 {
            let keys = ["draw_rate_lo", "draw_rate_hi"];
            rows.push((r, keys, u(&r["draws"]), u(&r["games"])));
        }
    }
    let input = dir.path().join("wilson.json");
    let kn: Vec<[u64; 2]> = rows.iter().map(|r| [r.2, r.3]).collect();
    std::fs::write(&input, serde_json::to_string(&kn).unwrap()).unwrap();
    let want: Vec<[f64; 2]> = serde_json::from_str(&python(&py, WILSON_ORACLE, &[&input])).unwrap();
    for ((row, keys, ..), [lo, hi]) in rows.iter().zip(want) {
        assert!((row[keys[0]].as_f64().unwrap() - lo).abs() <= 1e-6, "{row}");
        assert!((row[keys[1]].as_f64().unwrap() - hi).abs() <= 1e-6, "{row}");
    }
    assert!(data["draws"]["homogeneity"].is_object());
    assert!(!data["draws"]["funnel"].as_array().unwrap().is_empty());
}

/// The games per group of the page's group table in a DOM.
fn shown_groups(dom: &str) -> BTreeMap<String, u64> {
    let table = &dom[dom.find("id=\"group-table\"").expect("the group table")..];
    let body = &table[table.find("<tbody>").unwrap()..table.find("</tbody>").unwrap()];
    body.split("<tr data-group=\"")
        .skip(1)
        .map(|tr| {
            let label = tr[..tr.find('"').unwrap()].to_string();
            let games = tr.split("<td>").nth(1).unwrap();
            let games = games[..games.find("</td>").unwrap()].replace(',', "");
            (label, games.parse().unwrap())
        })
        .collect()
}

/// The games per group of a feature's table in a page's data.
fn data_groups(data: &Value, feature: &str) -> BTreeMap<String, u64> {
    let table = data["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["feature"] == feature)
        .unwrap();
    table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["group"].as_str().unwrap().to_string(), u(&r["games"])))
        .collect()
}

#[test]
fn report_page_shows_groups_and_draw_rates_and_filters_them() {
    const TEST: &str = "report_page_shows_groups_and_draw_rates_and_filters_them";
    let Some(py) = test_support::python_with(TEST, &["chess"]) else {
        return;
    };
    let truth = oracle(&py);
    let dir = tempfile::tempdir().unwrap();
    let pgn = grouped_archive(dir.path(), &truth.ranks);
    // The hostile names of the basic fixture, in the same file.
    let mut text = std::fs::read_to_string(&pgn).unwrap();
    text.push_str(&std::fs::read_to_string(archive(dir.path())).unwrap());
    std::fs::write(&pgn, text).unwrap();
    let page = dir.path().join("groups.html");
    report(&[&pgn], &[], &page);
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    // The page's groups are the file of pgn960 stats --groups, byte for byte.
    let groups_csv = dir.path().join("groups.csv");
    stats_csv(
        &[&pgn],
        &["--groups", groups_csv.to_str().unwrap()],
        dir.path(),
        "sp.csv",
    );
    let want_groups = std::fs::read_to_string(&groups_csv).unwrap();
    assert_eq!(data["groups_csv"].as_str().unwrap(), want_groups);
    let Some(seen) = chromium(TEST, &page, "#group=mirror&gsort=-games") else {
        return;
    };
    assert!(seen.page_requests.is_empty(), "{:?}", seen.page_requests);
    let dom = &seen.dom;
    assert_eq!(
        String::from_utf8(download(dom, "download-groups")).unwrap(),
        want_groups
    );
    assert_eq!(shown_groups(dom), data_groups(&data, "mirror"));
    // Sorted by games, most first.
    let first = dom.split("<tr data-group=\"").nth(1).unwrap();
    let first = &first[..first.find('"').unwrap()];
    let most = data_groups(&data, "mirror").into_values().max().unwrap();
    assert_eq!(data_groups(&data, "mirror")[first], most);
    assert!(dom.contains("id=\"within-pairs\""));
    assert!(
        dom.contains("id=\"draw-funnel-title\""),
        "the draw-rate chart"
    );
    assert!(!dom.contains("<img") && !dom.contains("<script>alert"));
    assert!(dom.contains("&lt;img src=x onerror=alert(3)&gt;"));
    // A month: the groups' games are the library's groups of the same month's games.
    let march = dir.path().join("march.html");
    report(
        &[&pgn],
        &["--since", "2024.03.01", "--until", "2024.03.31"],
        &march,
    );
    let march = page_data(&std::fs::read_to_string(&march).unwrap());
    let want = data_groups(&march, "king-file");
    assert!(want.values().sum::<u64>() > 0);
    let dom = chromium(TEST, &page, "#from=2024-03&to=2024-03&group=king-file")
        .unwrap()
        .dom;
    assert_eq!(
        shown_groups(&dom),
        want,
        "March's groups on the page and in the library"
    );
    // Its download is what `stats --groups` writes for March (tests included), as the
    // March page holds it.
    let csv = march["groups_csv"].as_str().unwrap();
    let mut lines = csv.lines();
    let mut want = format!("{}\n", lines.next().unwrap());
    for line in lines.filter(|l| l.starts_with("king-file,")) {
        want.push_str(line);
        want.push('\n');
    }
    assert_eq!(
        String::from_utf8(download(&dom, "download-groups-filtered")).unwrap(),
        want,
        "March's king-file groups: the page's download and stats --groups"
    );
    // The drawish first: the SP table by the draw rate's interval, high first.
    let dom = chromium(TEST, &page, "#sort=-draw_lo").unwrap().dom;
    let mut want: Vec<(u16, Option<f64>)> = data["sps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (u(&r["sp"]) as u16, r["draw_lo"].as_f64()))
        .collect();
    want.sort_by(|a, b| match (a.1, b.1) {
        (Some(x), Some(y)) => y.total_cmp(&x).then(a.0.cmp(&b.0)),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.0.cmp(&b.0),
    });
    let order: Vec<u16> = table_rows(&dom).iter().map(|r| r.0).collect();
    assert_eq!(order, want.iter().map(|w| w.0).collect::<Vec<_>>());
    for width in [400, 360] {
        let [scroll, inner, _] = narrow(TEST, &page, "#group=mirror", width).unwrap();
        assert!(
            scroll <= inner,
            "at {width} px the page scrolls sideways: {scroll}"
        );
    }
}

/// A Double Chess960 game: white from `white`, black from `black`, its event a hostile
/// name.
fn dfrc_game(white: &str, black: &str, result: &str, date: &str) -> String {
    let event = "<img src=x onerror=alert(4)>";
    game(white, "W", "B", event, result, "180+2", (2000, 2000))
        .replace(
            &format!("{}/pppppppp", white.to_ascii_lowercase()),
            &format!("{}/pppppppp", black.to_ascii_lowercase()),
        )
        .replace("2024.03.09", date)
}

/// The columns of a stats CSV the page's filtered downloads hold (counts, intervals, p-
/// and q-values), in their order.
fn count_columns(csv: &str) -> String {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let keep = [
        "sp",
        "black_sp",
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
    let cols: Vec<usize> = keep
        .iter()
        .filter_map(|k| header.iter().position(|h| h == k))
        .collect();
    let mut out = String::new();
    for line in std::iter::once(header.join(",").as_str()).chain(lines) {
        let fields: Vec<&str> = line.split(',').collect();
        let kept: Vec<&str> = cols.iter().map(|&c| fields[c]).collect();
        out.push_str(&kept.join(","));
        out.push('\n');
    }
    out
}

#[test]
fn report_page_filters_double_chess960_pairs_as_stats_since_until() {
    const TEST: &str = "report_page_filters_double_chess960_pairs_as_stats_since_until";
    let dir = tempfile::tempdir().unwrap();
    let ranks = ["BNRQKBNR", "RNBQKBNR", "BBQNNRKR", "QNBBNRKR"];
    let mut text = String::new();
    for i in 0..36usize {
        let (w, b) = (ranks[i % 4], ranks[(i / 4 + 1 + i % 4) % 4]);
        let result = ["1-0", "0-1", "1/2-1/2"][i % 3];
        let date = format!("2024.{:02}.{:02}", 3 + i % 3, 1 + i % 28);
        if w == b {
            text.push_str(
                &game(w, "W", "B", "SP", result, "60+0", (1800, 1800)).replace("2024.03.09", &date),
            );
        } else {
            text.push_str(&dfrc_game(w, b, result, &date));
        }
    }
    let pgn = dir.path().join("dfrc.pgn");
    std::fs::write(&pgn, text).unwrap();
    let page = dir.path().join("dfrc.html");
    report(&[&pgn], &[], &page);
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    assert!(data["summary"]["counted_double_chess960"].as_u64() > Some(0));
    assert!(!data["filter"]["pairs"].as_array().unwrap().is_empty());
    let pairs_csv = dir.path().join("april-pairs.csv");
    let month = ["--since", "2024.04.01", "--until", "2024.04.31"];
    let sp_csv = stats_csv(
        &[&pgn],
        &[&month[..], &["--dfrc-table", pairs_csv.to_str().unwrap()]].concat(),
        dir.path(),
        "april.csv",
    );
    let pairs_csv = std::fs::read_to_string(&pairs_csv).unwrap();
    assert!(pairs_csv.lines().count() > 1, "April has pairs");
    let Some(seen) = chromium(TEST, &page, "#from=2024-04&to=2024-04") else {
        return;
    };
    assert!(seen.page_requests.is_empty(), "{:?}", seen.page_requests);
    let dom = &seen.dom;
    assert!(!dom.contains("<img") && dom.contains("&lt;img src=x onerror=alert(4)&gt;"));
    assert_eq!(
        String::from_utf8(download(dom, "download-filtered-dfrc")).unwrap(),
        count_columns(&pairs_csv),
        "the filtered pairs: stats --since/--until --dfrc-table's columns"
    );
    assert_eq!(
        String::from_utf8(download(dom, "download-filtered-csv")).unwrap(),
        count_columns(&sp_csv),
        "the filtered SP table: stats --since/--until's columns"
    );
    let table = &dom[dom.find("id=\"pairs-table\"").unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    assert_eq!(
        table.matches("<tr data-pair=").count(),
        pairs_csv.lines().count() - 1,
        "the pairs of April only"
    );
    assert!(dom.contains("id=\"pairs-count\">Filtered: "));
    for width in [400, 360] {
        let [scroll, inner, _] = narrow(TEST, &page, "#from=2024-04&to=2024-04", width).unwrap();
        assert!(
            scroll <= inner,
            "at {width} px the page scrolls sideways: {scroll}"
        );
    }
    // Without a filter: all pairs, no filtered download.
    let dom = chromium(TEST, &page, "").unwrap().dom;
    assert!(!dom.contains("id=\"download-filtered-dfrc\""));
    let all = data["pairs"].as_array().unwrap().len();
    let table = &dom[dom.find("id=\"pairs-table\"").unwrap()..];
    assert_eq!(
        table[..table.find("</table>").unwrap()]
            .matches("<tr data-pair=")
            .count(),
        all
    );
}
