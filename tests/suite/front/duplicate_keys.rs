//! A key given twice: `P014` warns, and the last value is the one read and checked, as
//! serde_json, Go and Python read it (issue 18 item 8).

use loopconv::diag::{Code, Severity};
use loopconv::{LoadOptions, load};

use crate::support::{examples, read};

/// The bundled ReAct loop with its `max_steps` written twice, `first` then `last`.
fn twice(first: &str, last: &str) -> String {
    let text = String::from_utf8(read(&examples().join("agentpm/react-loop.json"))).expect("utf-8");
    assert!(
        text.contains("\"max_steps\": 10"),
        "the example sets max_steps to 10"
    );
    text.replacen(
        "\"max_steps\": 10",
        &format!("\"max_steps\": {first}, \"max_steps\": {last}"),
        1,
    )
}

fn codes(text: &str) -> Vec<(Code, Severity, u32)> {
    let l = load("dup.json", text.as_bytes(), &LoadOptions::default());
    l.diags
        .items()
        .iter()
        .map(|d| (d.code, d.severity, d.location.pos.map_or(0, |p| p.column)))
        .collect()
}

#[test]
fn the_last_value_of_a_duplicated_key_is_the_one_checked() {
    // An invalid first value, a valid last one: only the warning.
    let text = twice("\"oops\"", "7");
    let found = codes(&text);
    assert_eq!(found.len(), 1, "{found:?}\n{text}");
    assert_eq!(
        (found[0].0, found[0].1),
        (Code::JsonDuplicateKey, Severity::Warning)
    );
    let l = load("dup.json", text.as_bytes(), &LoadOptions::default());
    assert_eq!(
        l.spec.expect("read").bounds.max_steps,
        Some(7),
        "the last value is read"
    );

    // A valid first value, an invalid last one: the error, at the last value.
    let text = twice("7", "\"oops\"");
    let found = codes(&text);
    let errors: Vec<_> = found.iter().filter(|d| d.1 == Severity::Error).collect();
    assert_eq!(errors.len(), 1, "{found:?}");
    let line = text
        .lines()
        .find(|l| l.contains("\"oops\""))
        .expect("the line");
    let column = line.find("\"oops\"").expect("the value") as u32 + 1;
    assert_eq!(
        errors[0].2, column,
        "the error points at the last value: {line}"
    );
}
