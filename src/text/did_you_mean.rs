//! Did you mean: the known name closest to an unknown one, by edit distance (the help of
//! an unknown key in the shape check and of an unknown id in validation).

/// The candidate closest to `unknown`, among those `accept`ed, or `None` (the "did you
/// mean" of a `Suggestion::Replace`). Ties go to the earliest candidate.
///
/// The distance is `strsim::levenshtein`: insertions, deletions and substitutions of
/// characters (a transposition counts as two edits). `accept(distance, candidate)` must
/// only get stricter as the distance grows: a candidate it rejects at the difference in
/// length (a lower bound of the distance) is skipped without computing the distance.
pub fn closest<'a>(
    unknown: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    accept: impl Fn(usize, &str) -> bool,
) -> Option<&'a str> {
    let len = unknown.chars().count();
    if len > MAX_SUGGESTED_CHARS {
        return None;
    }
    candidates
        .into_iter()
        .filter(|k| accept(k.chars().count().abs_diff(len), k))
        .map(|k| (strsim::levenshtein(unknown, k), k))
        .filter(|&(d, k)| accept(d, k))
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// `name` is one edit from `declared` (a character inserted, deleted or replaced, or two
/// neighbours swapped: `exeucte` for `execute`, the commonest typo), or differs from it
/// only in case.
pub fn one_edit(name: &str, declared: &str) -> bool {
    name.eq_ignore_ascii_case(declared)
        || (name.len().abs_diff(declared.len()) <= 1
            && name.len() <= MAX_SUGGESTED_CHARS
            && strsim::osa_distance(name, declared) <= 1)
}

/// The longest name compared by edit distance (a stable id has at most 64 characters):
/// the distance costs the product of the two lengths, and a 440 KB file of long invalid
/// ids took 22 s for its did-you-means.
pub const MAX_SUGGESTED_CHARS: usize = 128;

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn closest_counts_a_transposition_as_two_edits_and_prefers_the_earliest() {
        // Plain Levenshtein: `ab` -> `ba` is two edits, not one.
        assert_eq!(strsim::levenshtein("ab", "ba"), 2);
        assert_eq!(strsim::levenshtein("日本", "日本語"), 1);
        let within_two = |d: usize, _: &str| d <= 2;
        assert_eq!(closest("plna", ["plan", "plank"], within_two), Some("plan"));
        assert_eq!(closest("cat", ["bat", "cut"], within_two), Some("bat"));
        assert_eq!(closest("gather", ["verify"], within_two), None);
    }
}
