//! The terminal: no control character or bidi override reaches it.

use crate::markup_safety::cases::{Case, agentpm_matrix, mas_matrix};
use loopconv::LoadOptions;
use loopconv::diag::{self};
use loopconv::model::mas as mm;
use serde_json::{Value, json};
// ---------------------------------------------------------------------------------------
// Markdown.

/// Terminal output: no control character but newline, whatever the user text.
pub(crate) fn assert_terminal_clean(out: &str, what: &str) {
    for (i, c) in out.char_indices() {
        assert!(
            c == '\n' || !c.is_control(),
            "{what}: control character {c:?} at {i} in\n{out}"
        );
    }
}

pub(crate) fn check_terminal(case: &Case) {
    let s = &case.hostile;
    // The loop itself, and versions of it broken right at the hostile text.
    let mut sources: Vec<(String, String)> = vec![("hostile.json".into(), case.source.clone())];
    let mut m = serde_json::to_value(agentpm_matrix(s)).expect("JSON");
    m["loop"]["transitions"][0]["to"] = json!(s); // V009: unknown target
    m["loop"]["phases"][1]["id"] = json!(s); // F005: invalid id
    m["loop"][s.as_str()] = json!(s); // F001: unknown field named by the text
    m["name"] = json!(s); // F004: invalid name
    sources.push((
        "broken.json".into(),
        serde_json::to_string_pretty(&m).expect("JSON"),
    ));
    let mut y = serde_json::to_value(mas_matrix(s, mm::LoopType::Veal)).expect("JSON");
    y["escalation"] = json!(s); // F007: invalid value
    y[s.as_str()] = json!(1); // F001
    sources.push((
        "broken.yaml".into(),
        serde_saphyr::to_string(&y).expect("YAML"),
    ));
    for (path, src) in &sources {
        let l = loopconv::load(path, src.as_bytes(), &LoadOptions::default());
        if path.starts_with("broken") {
            assert!(l.diags.has_errors(), "{}: {path} is not broken", case.label);
        }
        for color in [false, true] {
            let out = diag::render_human(l.diags.items(), l.text(), color);
            let what = format!("{} {path} (color {color})", case.label);
            if color {
                // Only the renderer's own SGR sequences.
                let mut plain = String::new();
                let mut rest = out.as_str();
                while let Some(i) = rest.find('\u{1b}') {
                    plain.push_str(&rest[..i]);
                    let tail = &rest[i + 1..];
                    let len = tail
                        .strip_prefix('[')
                        .and_then(|t| {
                            t.find('m').filter(|&k| {
                                t[..k].bytes().all(|b| b.is_ascii_digit() || b == b';')
                            })
                        })
                        .unwrap_or_else(|| panic!("{what}: escape sequence not from the renderer"));
                    rest = &tail[len + 2..];
                }
                plain.push_str(rest);
                assert_terminal_clean(&plain, &what);
            } else {
                assert_terminal_clean(&out, &what);
            }
        }
        let json = diag::render_json(l.diags.items());
        assert!(
            serde_json::from_str::<Value>(&json).is_ok(),
            "{path}: JSON diagnostics"
        );
    }
}
