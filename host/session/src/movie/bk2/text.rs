//! Small text helpers of the `.bk2` reader: lines as BizHawk's reader splits them, and texts cut
//! for error messages.

/// `s` cut to `n` characters (with `…` when cut), for error messages.
pub(super) fn cut(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// The lines of a text: split at LF, a CR before it dropped, a leading byte-order mark dropped.
pub(super) fn lines(text: &str) -> impl Iterator<Item = &str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l))
}
