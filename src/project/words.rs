//! The words of the project's messages: the did-you-mean, and user text quoted.

use crate::text::did_you_mean::MAX_SUGGESTED_CHARS;

/// The candidate closest to `unknown`, for a did-you-mean: within a third of its length in
/// edits, among at most 1,000 candidates of at most [`MAX_SUGGESTED_CHARS`] bytes (bounded
/// work; [`crate::text::did_you_mean::closest`] bounds `unknown` itself).
pub(super) fn closest<'a>(
    unknown: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let max = (unknown.chars().count() / 3).max(1);
    let candidates = (candidates.into_iter().take(1000)).filter(|c| c.len() <= MAX_SUGGESTED_CHARS);
    crate::text::did_you_mean::closest(unknown, candidates, |d, _| d <= max)
}

/// User text quoted in a message, cut as every message cuts it ([`crate::diag::cut`]).
pub(super) fn quote(text: &str) -> String {
    crate::diag::cut(text).into_owned()
}
