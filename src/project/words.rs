//! The words of the project's messages: the did-you-mean, and user text quoted.

/// The candidate closest to `unknown`, for a did-you-mean: within a third of its length in
/// edits, among at most 1,000 candidates of at most 128 bytes (bounded work).
pub(super) fn closest<'a>(
    unknown: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if unknown.len() > 128 {
        return None;
    }
    let max = (unknown.chars().count() / 3).max(1);
    let candidates = candidates.into_iter().take(1000).filter(|c| c.len() <= 128);
    crate::text::did_you_mean::closest(unknown, candidates, |d, _| d <= max)
}

/// User text quoted in a message: at most 80 characters, with an ellipsis and the full
/// length beyond.
pub(super) fn quote(text: &str) -> String {
    const MAX: usize = 80;
    match text.char_indices().nth(MAX) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
    }
}
