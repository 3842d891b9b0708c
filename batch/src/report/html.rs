//! The page as one self-contained HTML file: the template, style and script of
//! `batch/src/report/` inlined, the data as a JSON block, and a Content-Security-Policy
//! that lets the page fetch nothing and run only its own script and style (by hash).

use super::Page;
use anyhow::Result;
use pgn960::sha256::csp_source;

const TEMPLATE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// Escapes text for HTML element content and quoted attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON for a `<script type="application/json">` block: `<`, `>` and `&` written as
/// `\u003c`, `\u003e`, `\u0026` (the same string to `JSON.parse`), so no archive text can
/// close the block or open a comment.
pub fn json_for_script(page: &Page) -> Result<String> {
    let mut out = Vec::new();
    push_json_for_script(&mut out, page)?;
    Ok(String::from_utf8(out)?)
}

/// [`json_for_script`] appended to `out`: serialized there, then escaped in place from
/// the first byte to escape (most pages have none: nothing is copied).
fn push_json_for_script(out: &mut Vec<u8>, page: &Page) -> Result<()> {
    let start = out.len();
    serde_json::to_writer(&mut *out, page)?;
    let first = out.get(start..).and_then(first_to_escape);
    if let Some(first) = first {
        let json = out.split_off(start + first);
        escape_script_json(out, &json);
    }
    Ok(())
}

/// Whether a byte of JSON may need escaping in a script block (`<`, `>`, `&`, or the
/// first byte of U+2028 and U+2029): the byte-by-byte reference of [`first_to_escape`].
#[cfg(test)]
fn to_escape(b: u8) -> bool {
    matches!(b, b'<' | b'>' | b'&' | 0xE2)
}

/// The first byte of `json` that may need escaping in a script block (`<`, `>`, `&`, or
/// 0xE2, the first byte of U+2028 and U+2029), found by memchr's vector scans (the page's
/// JSON is megabytes, mostly with nothing to escape): the markup bytes, then 0xE2 before.
fn first_to_escape(json: &[u8]) -> Option<usize> {
    let markup = memchr::memchr3(b'<', b'>', b'&', json);
    let before = json.get(..markup.unwrap_or(json.len())).unwrap_or_default();
    memchr::memchr(0xE2, before).or(markup)
}

/// Appends `json` to `out` with `<`, `>`, `&`, U+2028 and U+2029 written as JSON escapes.
/// The next markup byte and the next 0xE2 are each searched again only once passed, so
/// text of many of one and none of the other is scanned once, not once per escape.
fn escape_script_json(out: &mut Vec<u8>, json: &[u8]) {
    let markup = |s: &[u8]| memchr::memchr3(b'<', b'>', b'&', s);
    let e2 = |s: &[u8]| memchr::memchr(0xE2, s);
    let (mut done, mut next_markup, mut next_e2) =
        (0, next_at(json, 0, markup), next_at(json, 0, e2));
    loop {
        let at = next_markup.min(next_e2);
        let Some(rest) = json.get(at..).filter(|r| !r.is_empty()) else {
            break;
        };
        out.extend_from_slice(json.get(done..at).unwrap_or_default());
        let (escape, len) = escape_of(rest);
        out.extend_from_slice(escape);
        done = at + len;
        if next_markup < done {
            next_markup = next_at(json, done, markup);
        }
        if next_e2 < done {
            next_e2 = next_at(json, done, e2);
        }
    }
    out.extend_from_slice(json.get(done..).unwrap_or_default());
}

/// What `rest`, from a byte that may need escaping, is written as, and how many of its
/// bytes that takes (0xE2 not starting U+2028 or U+2029 stays as it is).
fn escape_of(rest: &[u8]) -> (&[u8], usize) {
    match rest {
        [b'<', ..] => (b"\\u003c", 1),
        [b'>', ..] => (b"\\u003e", 1),
        [b'&', ..] => (b"\\u0026", 1),
        [0xE2, 0x80, 0xA8, ..] => (b"\\u2028", 3),
        [0xE2, 0x80, 0xA9, ..] => (b"\\u2029", 3),
        [b, ..] => (std::slice::from_ref(b), 1),
        [] => (b"", 1),
    }
}

/// Where `find` first finds its bytes in `json` from `from` on (`json.len()`: nowhere).
fn next_at(json: &[u8], from: usize, find: impl Fn(&[u8]) -> Option<usize>) -> usize {
    json.get(from..)
        .and_then(find)
        .map_or(json.len(), |at| from + at)
}

/// The Content-Security-Policy of the page: nothing may be fetched or connected to; only
/// the page's own script and style (by their SHA-256) run; images only as `data:` (none are
/// used).
pub fn content_security_policy() -> String {
    format!(
        "default-src 'none'; script-src {}; style-src {}; img-src data:; base-uri 'none'; \
         form-action 'none'",
        csp_source(SCRIPT),
        csp_source(STYLE)
    )
}

/// The whole page.
pub fn render(page: &Page) -> Result<String> {
    let mut out = Vec::with_capacity(TEMPLATE.len() + STYLE.len() + SCRIPT.len() + (1 << 20));
    // One pass over the template's `{{NAME}}` slots; inserted text is never scanned again.
    let mut rest = TEMPLATE;
    while let Some(start) = rest.find("{{") {
        out.extend_from_slice(&rest.as_bytes()[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            out.extend_from_slice(&rest.as_bytes()[start..]);
            rest = "";
            break;
        };
        match &after[..end] {
            // Our own text: quotes ', letters, digits, +/=; nothing to escape in "…".
            "CSP" => out.extend_from_slice(content_security_policy().as_bytes()),
            "TITLE" => out.extend_from_slice(escape_html(&page.title).as_bytes()),
            "STYLE" => out.extend_from_slice(STYLE.as_bytes()),
            "SCRIPT" => out.extend_from_slice(SCRIPT.as_bytes()),
            "DATA" => push_json_for_script(&mut out, page)?,
            other => anyhow::bail!("internal error: unknown template slot {other:?}"),
        }
        rest = &after[end + 2..];
    }
    out.extend_from_slice(rest.as_bytes());
    Ok(String::from_utf8(out)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_text_cannot_leave_its_place() {
        assert_eq!(
            escape_html("\"><img src=x onerror=alert(1)>&'"),
            "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&amp;&#39;"
        );
        let mut page = Page {
            title: "</script><script>alert(1)</script>".into(),
            ..Page::default()
        };
        page.summary.top_events = vec![("</script><!--".into(), 1)];
        let html = render(&page).unwrap();
        // The only closing script tags are the page's own two.
        assert_eq!(html.matches("</script").count(), 2, "{html}");
        assert!(!html.contains("<!--"));
        assert!(html.contains("&lt;/script&gt;&lt;script&gt;alert(1)"));
    }

    /// The escapes as made before: one character at a time.
    fn escaped_by_chars(json: &str) -> String {
        let mut out = String::new();
        for c in json.chars() {
            match c {
                '<' => out.push_str("\\u003c"),
                '>' => out.push_str("\\u003e"),
                '&' => out.push_str("\\u0026"),
                '\u{2028}' => out.push_str("\\u2028"),
                '\u{2029}' => out.push_str("\\u2029"),
                c => out.push(c),
            }
        }
        out
    }

    #[test]
    fn script_json_escaped_in_bytes_is_escaped_as_by_characters() {
        let pieces = [
            "a",
            "<",
            ">",
            "&",
            "\u{2028}",
            "\u{2029}",
            "\u{2027}",
            "\u{20ac}",
            "é",
            "\"",
            "\\",
            "</script>",
            "\u{e2}",
            "\u{1F600}",
        ];
        let mut rng = xorshift(7);
        for _ in 0..2000 {
            let len = (rng() % 12) as usize;
            let text: String = (0..len)
                .map(|_| pieces[(rng() % pieces.len() as u64) as usize])
                .collect();
            let json = serde_json::to_string(&text).unwrap();
            let mut out = b"x".to_vec();
            escape_script_json(&mut out, json.as_bytes());
            assert_eq!(
                String::from_utf8(out).unwrap(),
                format!("x{}", escaped_by_chars(&json))
            );
            let mut page = Page::default();
            page.summary.top_events = vec![(text.clone(), 1)];
            let whole = serde_json::to_string(&page).unwrap();
            assert_eq!(json_for_script(&page).unwrap(), escaped_by_chars(&whole));
        }
    }

    #[test]
    fn first_byte_to_escape_is_found_as_byte_by_byte() {
        // Random bytes (lengths 0 to 400, past memchr's vector widths), the bytes to
        // escape and their neighbours placed sparsely or densely.
        let special = [
            b'<', b'>', b'&', 0xE2, 0xE1, 0xE3, b'=', b'%', b'\\', 0x80, 0xA8, 0xA9,
        ];
        let mut rng = xorshift(11);
        for round in 0..3000 {
            let len = (rng() % 401) as usize;
            let dense = 1 + rng() % [2, 40, 1000][round % 3];
            let mut bytes: Vec<u8> = (0..len)
                .map(|_| match rng() % dense {
                    0 => special[(rng() % special.len() as u64) as usize],
                    _ => b'a' + (rng() % 26) as u8,
                })
                .collect();
            // Some whole U+2028 and U+2029.
            for _ in 0..rng() % 3 {
                let at = (rng() % (len as u64 + 1)) as usize;
                let last = [0xA8, 0xA9][(rng() % 2) as usize];
                bytes.splice(at..at, [0xE2, 0x80, last]);
            }
            let len = bytes.len();
            for start in [0, len / 3, len.saturating_sub(1)] {
                let json = &bytes[start.min(len)..];
                let want = json.iter().position(|&b| to_escape(b));
                assert_eq!(first_to_escape(json), want, "{json:?}");
                let (mut fast, mut slow) = (b"x".to_vec(), b"x".to_vec());
                escape_script_json(&mut fast, json);
                escape_by_bytes(&mut slow, json);
                assert_eq!(fast, slow, "{json:?}");
            }
        }
    }

    /// [`escape_script_json`] as it was, a byte at a time: the reference.
    fn escape_by_bytes(out: &mut Vec<u8>, json: &[u8]) {
        let mut rest = json;
        while let Some(at) = rest.iter().position(|&b| to_escape(b)) {
            out.extend_from_slice(&rest[..at]);
            let (escape, len) = escape_of(&rest[at..]);
            out.extend_from_slice(escape);
            rest = rest.get(at + len..).unwrap_or_default();
        }
        out.extend_from_slice(rest);
    }

    /// A small generator of test values (xorshift).
    fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed.max(1);
        move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }
    }

    #[test]
    fn policy_hashes_the_inlined_script_and_style() {
        let html = render(&Page::default()).unwrap();
        assert!(html.contains(&csp_source(SCRIPT)));
        assert!(html.contains(&format!("<script>{SCRIPT}</script>")));
        assert!(html.contains(&format!("<style>{STYLE}</style>")));
        let policy = content_security_policy();
        assert!(!policy.contains("unsafe"));
        assert!(!policy.contains(['"', '<', '>', '&']));
        assert!(html.contains(&format!("content=\"{policy}\"")));
    }
}
