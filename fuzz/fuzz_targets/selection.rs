//! The selection-expression parsers of `filter`/`split` on arbitrary text: no panic; an SP
//! list that is read holds exactly the SPs its text names (checked against a naive reading
//! here), all in 0..=959; a `--tag` match that is read gives back its name and value; dates,
//! date spans, speeds, time controls and `--reaches` positions read without panicking, and
//! what they read is in range.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn960::facts::speed_of;
use pgn960::select::{parse_date_span, Date, Reaches, Speed, SpList, TagMatch};

/// A naive reading of an SP list: the set of SPs it names, or `None` when it is not one.
fn naive_sps(text: &str) -> Option<Vec<bool>> {
    let mut set = vec![false; 960];
    let number = |s: &str| -> Option<usize> {
        let s = s.trim();
        let digits = s.strip_prefix('+').unwrap_or(s);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let digits = digits.trim_start_matches('0');
        if digits.len() > 3 {
            return None;
        }
        let n: usize = if digits.is_empty() { 0 } else { digits.parse().ok()? };
        (n < 960).then_some(n)
    };
    for item in text.split(',') {
        let (a, b) = match item.find('-') {
            Some(at) => (number(&item[..at])?, number(&item[at + 1..])?),
            None => {
                let n = number(item)?;
                (n, n)
            }
        };
        if a > b {
            return None;
        }
        for sp in a..=b {
            set[sp] = true;
        }
    }
    Some(set)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };

    let list = text.parse::<SpList>();
    match (&list, naive_sps(text)) {
        (Ok(list), Some(set)) => {
            for sp in 0..1100u16 {
                assert_eq!(
                    list.contains(sp),
                    set.get(usize::from(sp)).copied().unwrap_or(false),
                    "SP {sp} in {text:?}"
                );
            }
        }
        (Err(_), None) => {}
        (got, naive) => panic!("{text:?}: parsed {got:?}, naive reading {}", naive.is_some()),
    }

    if let Ok(m) = text.parse::<TagMatch>() {
        let op = if m.substring { '~' } else { '=' };
        assert_eq!(format!("{}{op}{}", m.name, m.value), text);
        assert!(!m.name.is_empty());
        assert!(m.name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
        assert_eq!(m.name.find(['=', '~']), None);
        assert_eq!(m.name.parse::<TagMatch>().ok(), None);
    } else {
        let at = text.find(['=', '~']);
        let name_ok = at.is_some_and(|at| {
            at > 0 && text[..at].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        });
        assert!(!name_ok, "{text:?} should be a tag match");
    }

    if let Some((first, last)) = parse_date_span(text) {
        assert!(first <= last, "{text:?}: {first:?} > {last:?}");
        for d in [first, last] {
            assert!((1..=12).contains(&d.month) && (1..=31).contains(&d.day), "{text:?}");
        }
        if let Ok(date) = text.parse::<Date>() {
            assert_eq!((first, last), (date, date), "{text:?}");
        }
    }
    if let Ok(date) = text.parse::<Date>() {
        assert!((1..=12).contains(&date.month) && (1..=31).contains(&date.day));
        assert_eq!(parse_date_span(text), Some((date, date)), "{text:?}");
    }

    if let Ok(speed) = text.parse::<Speed>() {
        assert_eq!(speed.to_string().parse::<Speed>(), Ok(speed));
    }
    let _ = speed_of(text);

    if let Ok(reaches) = text.parse::<Reaches>() {
        let _ = format!("{reaches:?}");
    }
});
