//! The names of a machine written by hand as a loop's: stable ids from camelCase and
//! UPPER_CASE names, the words of a name, the terminal a final state's name suggests.

use crate::ir::Terminal;
use crate::ir::id_pattern::{is_stable_id, repaired_id};

/// `name` as a stable id, when splitting its camelCase or UPPER_CASE words with hyphens
/// makes one (`reviewCode` -> `review-code`, `FETCH_DATA` -> `fetch-data`).
pub(super) fn kebab(name: &str) -> Option<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1).copied();
            let boundary = prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
                || (prev.is_some_and(|p| p.is_ascii_uppercase())
                    && next.is_some_and(|n| n.is_ascii_lowercase()));
            if boundary {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    let fixed = repaired_id(&out).unwrap_or(out);
    is_stable_id(&fixed).then_some(fixed)
}

/// `base`, or `base-2`, `base-3`, ... : the first that `taken` does not hold, which it
/// then holds.
pub(super) fn free_id(taken: &mut std::collections::HashSet<String>, base: String) -> String {
    let mut id = base.clone();
    let mut n = 2;
    while taken.contains(&id) {
        id = format!("{base}-{n}");
        n += 1;
    }
    taken.insert(id.clone());
    id
}

/// The words of a name, for a generated text (`reviewCode` -> `review code`).
pub(super) fn words(name: &str) -> String {
    kebab(name).map_or_else(|| name.to_owned(), |k| k.replace('-', " "))
}

/// The terminal a final state's name suggests, when it says.
pub(super) fn terminal_by_name(key: &str) -> Option<Terminal> {
    const ABORTED: &[&str] = &[
        "fail",
        "failed",
        "failure",
        "error",
        "errored",
        "abort",
        "aborted",
        "cancel",
        "cancelled",
        "canceled",
        "rejected",
        "reject",
        "denied",
        "timeout",
        "expired",
        "invalid",
        "terminated",
        "declined",
        "unresolved",
        "abandoned",
        "broken",
        "lost",
    ];
    const HANDED_OFF: &[&str] = &[
        "handoff",
        "handed",
        "escalate",
        "escalated",
        "human",
        "manual",
    ];
    const ENDED: &[&str] = &[
        "success",
        "succeeded",
        "successful",
        "solved",
        "done",
        "complete",
        "completed",
        "finished",
        "finish",
        "end",
        "ended",
        "resolved",
        "approved",
        "ok",
        "published",
        "delivered",
        "closed",
        "paid",
        "merged",
        "shipped",
        "deployed",
        "accepted",
        "fulfilled",
    ];
    let name = kebab(key).unwrap_or_else(|| key.to_ascii_lowercase());
    let has = |list: &[&str]| name.split('-').any(|w| list.contains(&w));
    if has(HANDED_OFF) {
        Some(Terminal::Handoff)
    } else if has(ABORTED) {
        Some(Terminal::Abort)
    } else if has(ENDED) {
        Some(Terminal::End)
    } else {
        None
    }
}
