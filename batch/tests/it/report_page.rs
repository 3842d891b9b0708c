//! `pgn960 report`'s page in headless Chromium beyond its basics: narrow screens, the
//! downloads against `pgn960 stats`'s files, the month filter against `stats --since
//! --until`, Double Chess960 pairs, an SP's games with their links, `--headers-only`.

use crate::report::{archive, chromium, chromium_with, game, page_data, table_rows};
use crate::util::{pgn960, shared_data};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Decodes standard base64 (the page's data: URLs).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::new();
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, d) in chunk.iter().enumerate() {
            n |= u32::from(*d) << (18 - 6 * i);
        }
        out.extend(n.to_be_bytes()[1..chunk.len()].iter());
    }
    out
}

/// The file behind the download link `id` of a page's DOM.
pub(crate) fn download(dom: &str, id: &str) -> Vec<u8> {
    let at = dom
        .find(&format!("id=\"{id}\""))
        .expect("the download link");
    let tag_start = dom[..at].rfind("<a ").unwrap();
    let tag = &dom[tag_start..tag_start + dom[tag_start..].find('>').unwrap()];
    let href = tag.split("href=\"").nth(1).expect("href");
    let href = &href[..href.find('"').unwrap()];
    let data = href.split(";base64,").nth(1).expect("a base64 data URL");
    base64_decode(data)
}

/// The SP table's games per SP as the DOM shows them (third cell of each row).
fn shown_games(dom: &str) -> BTreeMap<u16, u64> {
    let table = &dom[dom.find("id=\"sp-table\"").unwrap()..];
    let body = &table[table.find("<tbody>").unwrap()..table.find("</tbody>").unwrap()];
    body.split("<tr ")
        .skip(1)
        .map(|tr| {
            let sp = tr.split("data-sp=\"").nth(1).unwrap();
            let sp: u16 = sp[..sp.find('"').unwrap()].parse().unwrap();
            let games = tr.split("<td>").nth(2).unwrap();
            let games = games[..games.find("</td>").unwrap()].replace(',', "");
            (sp, games.parse().unwrap())
        })
        .collect()
}

/// Games per SP in a CSV of `pgn960 stats`.
pub(crate) fn csv_games(csv: &str) -> BTreeMap<u16, u64> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let sp = header.iter().position(|h| *h == "sp").unwrap();
    let games = header.iter().position(|h| *h == "games").unwrap();
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[sp].parse().unwrap(), f[games].parse().unwrap())
        })
        .collect()
}

pub(crate) fn stats_csv(inputs: &[&Path], args: &[&str], dir: &Path, name: &str) -> String {
    let out = dir.join(name);
    pgn960()
        .arg("stats")
        .args(inputs)
        .args(args)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    std::fs::read_to_string(out).unwrap()
}

pub(crate) fn report(inputs: &[&Path], args: &[&str], page: &Path) -> String {
    let out = pgn960()
        .arg("report")
        .args(inputs)
        .args(args)
        .arg("-o")
        .arg(page)
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stderr).into_owned()
}

/// A game of SP 226 (BNRQKBNR) whose knights shuffle for 20 plies, each move with an
/// engine evaluation (`[%eval]`): +0.10 per ply, so ply 10 is +1.00 and ply 20 +2.00.
fn evaluated_game(result: &str, date: &str) -> String {
    let mut moves = String::new();
    let plies = ["Nc3", "Nc6", "Nb1", "Nb8"];
    for ply in 1..=20u32 {
        if ply % 2 == 1 {
            moves.push_str(&format!("{}. ", ply / 2 + 1));
        }
        let eval = format!("{:.2}", f64::from(ply) / 10.0);
        moves.push_str(&format!(
            "{} {{[%eval {eval}]}} ",
            plies[(ply as usize - 1) % 4]
        ));
    }
    format!(
        "[Event \"Engines\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"{result}\"]\n[Date \"{date}\"]\n\
         [Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"bnrqkbnr/pppppppp/8/8/8/8/PPPPPPPP/BNRQKBNR w KQkq - 0 1\"]\n\n{moves}{result}\n\n"
    )
}

#[test]
fn report_page_fits_narrow_screens_and_downloads_the_stats_csv() {
    const TEST: &str = "report_page_fits_narrow_screens_and_downloads_the_stats_csv";
    let dir = tempfile::tempdir().unwrap();
    let pgn = archive(dir.path());
    let mut text = std::fs::read_to_string(&pgn).unwrap();
    text.push_str(&evaluated_game("1-0", "2024.03.10"));
    text.push_str(&evaluated_game("1/2-1/2", "2024.03.11"));
    std::fs::write(&pgn, text).unwrap();
    let page = dir.path().join("page.html");
    report(&[&pgn], &[], &page);
    let html = std::fs::read_to_string(&page).unwrap();
    let data = page_data(&html);
    let want = stats_csv(&[&pgn], &[], dir.path(), "stats.csv");
    let header: Vec<&str> = want.lines().next().unwrap().split(',').collect();
    let row: Vec<&str> = want.lines().nth(227).unwrap().split(',').collect();
    let col = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(
        (col("sp"), col("eval_games"), col("eval_ply20_games")),
        ("226", "2", "2"),
        "the fixture's evaluations are in the table"
    );
    assert_eq!(data["csv"].as_str().unwrap(), want, "the page's CSV");
    assert_eq!(data["sps"][226]["eval10"].as_f64(), Some(1.0));
    assert_eq!(data["sps"][226]["eval20"].as_f64(), Some(2.0));
    let Some(seen) = chromium(TEST, &page, "#sp=226") else {
        return;
    };
    assert_eq!(
        String::from_utf8(download(&seen.dom, "download-csv")).unwrap(),
        want,
        "the CSV the page downloads is pgn960 stats's, byte for byte"
    );
    let svg = String::from_utf8(download(&seen.dom, "download-funnel")).unwrap();
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg:.80}"
    );
    assert!(svg.contains("<polygon") && svg.matches("<circle").count() >= 3);
    // The open SP is ringed on the funnel.
    assert!(seen.dom.contains("class=\"open-sp\" data-sp=\"226\""));
    for width in [400, 360] {
        let [scroll, inner, drawn] = narrow(TEST, &page, "#sp=226", width).unwrap();
        assert_eq!(inner, width, "the frame is {width} px wide");
        assert!(
            scroll <= inner,
            "at {width} px the page scrolls sideways: {scroll}"
        );
        // The funnel is drawn for the width it has, not shrunk from 1200 px.
        assert!(drawn <= width && drawn >= 300, "{drawn}");
    }
}

/// The page opened in a frame `width` pixels wide (headless Chromium's windows are at
/// least 500 wide): the page's `document.documentElement.scrollWidth`, its `innerWidth`
/// and the width its funnel was drawn at, read by the frame's parent.
pub(crate) fn narrow(test: &str, page: &Path, fragment: &str, width: u32) -> Option<[u32; 3]> {
    let name = page.file_name().unwrap().to_str().unwrap();
    let frame = page.with_file_name(format!("frame-{width}.html"));
    std::fs::write(
        &frame,
        format!(
            "<!DOCTYPE html><body style=\"margin:0\"><iframe id=\"f\" src=\"{name}{fragment}\" \
             style=\"border:0;width:{width}px;height:900px\"></iframe><pre id=\"out\"></pre><script>\
             const f = document.getElementById('f');\
             f.addEventListener('load', () => setTimeout(() => {{\
               const d = f.contentDocument, svg = d.querySelector('#funnel svg');\
               document.getElementById('out').textContent = [d.documentElement.scrollWidth,\
                 f.contentWindow.innerWidth, svg ? svg.getAttribute('width') : 0].join(' ');\
             }}, 300));</script>"
        ),
    )
    .unwrap();
    let seen = chromium_with(test, &frame, "", &["--allow-file-access-from-files"])?;
    let out = seen
        .dom
        .split("<pre id=\"out\">")
        .nth(1)
        .expect("the frame's numbers");
    let numbers: Vec<u32> = out[..out.find('<').unwrap()]
        .split(' ')
        .map(|n| n.parse().expect("a number"))
        .collect();
    Some([numbers[0], numbers[1], numbers[2]])
}

#[test]
fn report_page_filters_to_a_month_as_stats_since_until() {
    const TEST: &str = "report_page_filters_to_a_month_as_stats_since_until";
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    let ranks = ["BNRQKBNR", "RNBQKBNR", "BBQNNRKR", "QNBBNRKR"];
    for i in 0..40u32 {
        let rank = ranks[(i % 4) as usize];
        let result = ["1-0", "0-1", "1/2-1/2"][(i % 3) as usize];
        let tc = ["60+0", "180+2", "600+0"][(i % 3) as usize];
        let mut g = game(
            rank,
            "W",
            "B",
            &format!("E{}", i % 2),
            result,
            tc,
            (1500 + 50 * i, 1600),
        );
        let date = match i % 5 {
            0 => "2024.03.??".to_string(),
            1 => "2024.??.??".to_string(),
            k => format!("2024.{:02}.{:02}", 2 + k, 1 + i % 28),
        };
        g = g.replace("2024.03.09", &date);
        text.push_str(&g);
    }
    let pgn = dir.path().join("months.pgn");
    std::fs::write(&pgn, text).unwrap();
    let page = dir.path().join("months.html");
    report(&[&pgn], &[], &page);
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    let months: Vec<&str> = data["filter"]["months"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(months, ["", "2024-03", "2024-04", "2024-05", "2024-06"]);
    let want = csv_games(&stats_csv(
        &[&pgn],
        &["--since", "2024.03.01", "--until", "2024.03.31"],
        dir.path(),
        "march.csv",
    ));
    assert!(want.values().sum::<u64>() > 0);
    let Some(seen) = chromium(TEST, &page, "#from=2024-03&to=2024-03&empty=1") else {
        return;
    };
    assert_eq!(
        shown_games(&seen.dom),
        want,
        "March on the page and in stats"
    );
    assert!(seen
        .dom
        .contains("--since 2024.03.01 --until 2024.03.31 --report report.json"));
    // A range of months and a speed.
    let want = csv_games(&stats_csv(
        &[&pgn],
        &[
            "--since",
            "2024.04.01",
            "--until",
            "2024.06.31",
            "--time-control",
            "blitz",
        ],
        dir.path(),
        "spring.csv",
    ));
    let dom = chromium(TEST, &page, "#from=2024-04&to=2024-06&speed=blitz")
        .unwrap()
        .dom;
    assert_eq!(shown_games(&dom), want);
    // Without a filter the rows are the page's own (and SPs without games are hidden).
    let dom = chromium(TEST, &page, "").unwrap().dom;
    let rows = table_rows(&dom);
    let with_games = data["sps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["games"].as_u64() > Some(0))
        .count();
    assert_eq!(rows.iter().filter(|r| !r.1).count(), with_games);
    assert!(dom.contains(&format!(
        "id=\"count\">Showing {with_games} of 960 start positions ({} without games hidden",
        960 - with_games
    )));
}

/// The three TCEC files of the shared data that are Double Chess960.
fn dfrc_file(test: &str) -> Option<PathBuf> {
    shared_data(test, "pgn/tcec/TCEC_Season_24_-_Dfrc_2_Final.pgn")
}

#[test]
fn report_page_shows_double_chess960_pairs() {
    const TEST: &str = "report_page_shows_double_chess960_pairs";
    let Some(pgn) = dfrc_file(TEST) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("dfrc.html");
    let summary = report(&[&pgn], &[], &page);
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    let pairs = data["pairs"].as_array().unwrap();
    let games = data["summary"]["counted_double_chess960"].as_u64().unwrap();
    assert!(games > 0 && !pairs.is_empty());
    assert!(
        summary.contains(&format!("{games} Double Chess960 games")),
        "{summary}"
    );
    assert!(!summary.contains("nothing was counted"), "{summary}");
    let dfrc_csv = dir.path().join("dfrc.csv");
    pgn960()
        .arg("stats")
        .arg(&pgn)
        .arg("--dfrc-table")
        .arg(&dfrc_csv)
        .arg("-o")
        .arg(dir.path().join("sp.csv"))
        .assert()
        .success();
    let want = std::fs::read_to_string(&dfrc_csv).unwrap();
    let first = &pairs[0];
    let (w, b) = (first[0].as_u64().unwrap(), first[1].as_u64().unwrap());
    let Some(seen) = chromium(TEST, &page, &format!("#sp={w}")) else {
        return;
    };
    let dom = &seen.dom;
    assert!(
        dom.contains("class=\"verdict\">No game in the SP table: the "),
        "the headline"
    );
    let table = &dom[dom.find("id=\"pairs-table\"").expect("the pairs table")..];
    let table = &table[..table.find("</table>").unwrap()];
    assert_eq!(
        table.matches("<tr data-pair=").count(),
        pairs.len().min(300)
    );
    assert!(table.contains(&format!("<tr data-pair=\"{w}/{b}\">")));
    // Linked from the panels of both SPs.
    let panel = &dom[dom.find("<section id=\"panel\"").unwrap()..];
    let panel = &panel[..panel.find("</section>").unwrap()];
    assert!(panel.contains(&format!("data-pair=\"{w}/{b}\"")));
    assert_eq!(
        String::from_utf8(download(dom, "download-dfrc")).unwrap(),
        want
    );
    let dom = chromium(TEST, &page, &format!("#sp={b}")).unwrap().dom;
    assert!(dom.contains(&format!("data-pair=\"{w}/{b}\"")));
}

#[test]
fn report_page_lists_an_sps_games_and_says_what_is_true() {
    const TEST: &str = "report_page_lists_an_sps_games_and_says_what_is_true";
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..25 {
        let site = match i {
            0 => "https://lichess.org/abc\\\"><b>x</b>",
            1 => "javascript:alert(1)",
            _ => "Local",
        };
        let g = game(
            "BNRQKBNR",
            &format!("P{i}"),
            "Q",
            "Cup",
            "1-0",
            "180+2",
            (1500, 1500),
        );
        text.push_str(&g.replace("[Result", &format!("[Site \"{site}\"]\n[Result")));
    }
    // SP 518: two games without a move (forfeits).
    for _ in 0..2 {
        text.push_str("[Event \"F\"]\n[White \"X\"]\n[Black \"Y\"]\n[Result \"1-0\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n\n1-0\n\n");
    }
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, text).unwrap();
    let page = dir.path().join("games.html");
    report(&[&pgn], &["--title", "My <archive>"], &page);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<title>My &lt;archive&gt;</title>"));
    assert!(!html.contains("javascript:"));
    let data = page_data(&html);
    assert_eq!(data["sps"][518]["games"].as_u64(), Some(2));
    let Some(seen) = chromium(TEST, &page, "#sp=226") else {
        return;
    };
    let dom = &seen.dom;
    assert!(dom.contains("The first 10 games read, and 15 more."));
    assert!(dom.contains("<td class=\"text\">P0</td>"));
    let link = dom.split("<a href=\"https://lichess.org/abc").count() - 1;
    assert_eq!(link, 1, "one link, to the http(s) site");
    assert!(!dom.contains("<b>x"), "the site stays an attribute value");
    // Cut tables list only the values with games of the SP.
    let panel = &dom[dom.find("<section id=\"panel\"").unwrap()..];
    assert!(panel.contains("<td class=\"text\">blitz</td>"));
    assert!(!panel.contains("<td class=\"text\">bullet</td>"));
    let dom = chromium(TEST, &page, "#sp=518").unwrap().dom;
    assert!(
        dom.contains("2 games, none with a move"),
        "the tree says what is true"
    );
    assert!(!dom.contains(">No games.<"));
}

#[test]
fn report_headers_only_counts_as_stats_headers_only() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = archive(dir.path());
    let page = dir.path().join("tags.html");
    report(&[&pgn], &["--headers-only"], &page);
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    let want = stats_csv(&[&pgn], &["--headers-only"], dir.path(), "tags.csv");
    assert_eq!(data["csv"].as_str().unwrap(), want);
    assert_eq!(data["tree"], Value::Null);
    assert_eq!(data["overview"]["games"].as_u64(), Some(9));
    // An invalid game: exit status 1, the page still written.
    let mut text = std::fs::read_to_string(&pgn).unwrap();
    text.push_str("[Event \"x\"]\n[Result \"1-0\"]\n\n1. e5 1-0\n\n");
    std::fs::write(&pgn, text).unwrap();
    pgn960()
        .arg("report")
        .arg(&pgn)
        .arg("-o")
        .arg(&page)
        .assert()
        .code(1);
}
