//! What the shape check costs beyond the report's limit.

use std::cell::Cell;

use super::{Profile, UnknownKey, check};
use crate::diag::{Code, Diagnostics, Severity};
use crate::format::Format;
use crate::front::vocabulary::KEYS;
use crate::tree::{Member, ReadLimits, parse_json};

thread_local! {
    /// How many times this test's thread asked the format's rule about an unknown key.
    static ASKED: Cell<usize> = const { Cell::new(0) };
}

fn counting_rule(_: &str, _: &str, _: &[Member]) -> UnknownKey {
    ASKED.with(|n| n.set(n.get() + 1));
    UnknownKey::Unknown
}

/// A key beyond the report's limit is counted without asking the format's rule (nor
/// writing its pointer) when every key the rule describes is an `F001`; otherwise the rule
/// is asked of every key, since it may explain one away or give another code.
#[test]
fn an_unknown_key_beyond_the_limit_is_only_counted() {
    let keys: String = (0..50).map(|i| format!(r#", "u{i}": 0"#)).collect();
    let text = format!(
        r#"{{"kind": "loop", "name": "n", "version": "0.1.0", "description": "d", "loop": {{"entry_phase": "a", "phases": [{{"id": "a", "objective": "Act."{keys}}}], "transitions": [{{"from": "a", "on": "complete", "to": "$end"}}]}}}}"#
    );
    for (is_f001, asked) in [(true, 5), (false, 50)] {
        ASKED.with(|n| n.set(0));
        let mut diags = Diagnostics::new("x.json");
        diags.set_limit(5);
        let doc =
            parse_json(text.clone(), &KEYS, &ReadLimits::default(), &mut diags).expect("JSON");
        let profile = Profile {
            unknown_key: Some(counting_rule),
            unknown_key_is_f001: is_f001,
            ..Profile::default()
        };
        check(&doc, Format::Agentpm, &profile, &mut diags);
        assert_eq!(ASKED.with(Cell::get), asked, "is_f001: {is_f001}");
        assert_eq!(diags.count(Severity::Error), 50);
        let items = diags.items();
        assert_eq!(items.len(), 6);
        assert!(items[..5].iter().all(|d| d.code == Code::UnknownField));
        assert!(
            items[5].message.starts_with("45 more diagnostics"),
            "{}",
            items[5].message
        );
    }
}
