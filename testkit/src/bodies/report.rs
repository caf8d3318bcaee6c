//! The machine-readable reports and the analyses on arbitrary bytes: the SARIF and GitHub
//! renderings of a file's diagnostics (the SARIF log parses, its results are the
//! diagnostics, capped, and no GitHub line carries a raw control character), then, when the
//! loop is valid, `paths`, a `walk` of a script made of the input's outcomes, and `diff`
//! of the loop against itself (no change) in every form.

use loopconv::analysis::{Runtime, diff, paths, walk};
use loopconv::{LoadOptions, back, diag, load};

/// One fuzz input: panics on a bug, returns on anything else.
pub fn run(data: &[u8]) {
    let name = if data.first() == Some(&b'{') {
        "fuzz\u{1b}[31m.json"
    } else {
        "fuzz\u{7}.yaml"
    };
    let l = load(name, data, &LoadOptions::default());
    let items = l.diags.items();
    let sarif = diag::render_sarif(items);
    let log: serde_json::Value = serde_json::from_str(&sarif).expect("the SARIF log parses");
    let results = log["runs"][0]["results"].as_array().map_or(0, Vec::len);
    assert_eq!(results, items.len(), "a result per diagnostic");
    assert!(
        items.len() <= diag::DEFAULT_MAX_DIAGNOSTICS + 1,
        "the report is capped"
    );
    let github = diag::render_github(items);
    assert!(
        !github.chars().any(|c| c.is_control() && c != '\n'),
        "a raw control character in {github:?}"
    );
    assert_eq!(github.lines().count(), items.len());
    let Some((spec, info)) = l.valid() else {
        return;
    };
    let rt = Runtime::default();
    let options = paths::Options {
        max_steps_listed: 10_000,
        ..paths::Options::default()
    };
    let p = paths::plan(spec, info, rt, options).into_paths();
    assert!(p.covered <= p.total, "covered more than there is");
    // A script of the loop's own outcome ids, in order, cut short.
    let outcomes: Vec<String> = (spec.graph.phases.iter())
        .flat_map(|p| p.outcome_ids())
        .take(50)
        .map(str::to_owned)
        .collect();
    let script = walk::Script {
        outcomes,
        decisions: Vec::new(),
    };
    let _ = walk::walk(spec, info, &script, rt);
    let d = diff::diff(spec, spec);
    assert!(
        d.changes.is_empty() && d.renames.is_empty(),
        "a loop differs from itself: {d:?}"
    );
    let _ = back::diff::text(&d, name, name);
    let json = back::diff::json(&d, name, name);
    assert!(
        serde_json::from_str::<serde_json::Value>(&json).is_ok(),
        "{json}"
    );
    let _ = back::diff::markdown(&d, spec, spec, name, name);
    let _ = back::diff::github(&d, name);
    let sarif = back::diff::sarif(&d, name.as_bytes());
    assert!(
        serde_json::from_str::<serde_json::Value>(&sarif).is_ok(),
        "{sarif}"
    );
}
