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
    let json = serde_json::to_string(page)?;
    let mut out = String::with_capacity(json.len() + json.len() / 50);
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
    Ok(out)
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
    let data = json_for_script(page)?;
    let mut out = String::with_capacity(TEMPLATE.len() + STYLE.len() + SCRIPT.len() + data.len());
    // One pass over the template's `{{NAME}}` slots; inserted text is never scanned again.
    let mut rest = TEMPLATE;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[start..]);
            rest = "";
            break;
        };
        match &after[..end] {
            // Our own text: quotes ', letters, digits, +/=; nothing to escape in "…".
            "CSP" => out.push_str(&content_security_policy()),
            "TITLE" => out.push_str(&escape_html(&page.title)),
            "STYLE" => out.push_str(STYLE),
            "SCRIPT" => out.push_str(SCRIPT),
            "DATA" => out.push_str(&data),
            other => anyhow::bail!("internal error: unknown template slot {other:?}"),
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
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
