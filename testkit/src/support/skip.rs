//! Skips that show. A check that needs something this machine may lack (an installed tool,
//! the shared corpus) calls [`skip`] when it is missing: the skip is recorded with the test
//! that made it, and when the test binary exits, one line on standard error names every
//! skipped check and why (the harness hides what passing tests print, so the line is
//! written at exit, past the harness). With `LOOPCONV_REQUIRE_TOOLS=1` (set by `.ci/run`)
//! a skip is a failure instead.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::sync::{Mutex, Once};

/// What was skipped and why -> the tests that skipped it.
static SKIPS: Mutex<BTreeMap<(String, String), Vec<String>>> = Mutex::new(BTreeMap::new());

/// Whether every skip must fail instead: `LOOPCONV_REQUIRE_TOOLS=1`.
pub fn required() -> bool {
    std::env::var("LOOPCONV_REQUIRE_TOOLS").is_ok_and(|v| v == "1")
}

/// The running test's name (the harness names each test's thread after it).
fn test_name() -> String {
    std::thread::current()
        .name()
        .unwrap_or("an unnamed test")
        .to_owned()
}

/// Record that the running test skipped `what` because of `why`; under
/// `LOOPCONV_REQUIRE_TOOLS=1`, fail instead.
pub fn skip(what: &str, why: &str) {
    assert!(
        !required(),
        "{what} is required (LOOPCONV_REQUIRE_TOOLS=1) but {why}: run scripts/install-tools.sh \
         and check out the shared folder beside the repository"
    );
    at_exit();
    let mut skips = SKIPS.lock().unwrap_or_else(|e| e.into_inner());
    let tests = skips.entry((what.to_owned(), why.to_owned())).or_default();
    let name = test_name();
    if !tests.contains(&name) {
        tests.push(name);
    }
}

/// Print the summary line when the test binary exits, skips or not (called by
/// `support::repo`, which nearly every test uses, and by [`skip`]): a run that skipped
/// nothing says so.
pub fn at_exit() {
    static AT_EXIT: Once = Once::new();
    AT_EXIT.call_once(|| {
        // SAFETY: `atexit` is the C library's; `print_summary` is a plain `extern "C" fn`
        // without arguments, which is what it takes.
        unsafe { atexit(print_summary) };
    });
}

unsafe extern "C" {
    fn atexit(f: extern "C" fn()) -> std::ffi::c_int;
}

/// The one summary line, written at exit straight to standard error.
extern "C" fn print_summary() {
    let skips = SKIPS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(line) = summary(&skips) {
        // At exit there is nowhere left to report a failed write to standard error.
        let _ = writeln!(std::io::stderr(), "{line}");
    }
}

/// `skipped N checks: <what> (<why>): test, test; ...`, or that none was skipped.
fn summary(skips: &BTreeMap<(String, String), Vec<String>>) -> Option<String> {
    if skips.is_empty() {
        return Some(
            "loopconv tests: skipped no checks (every tool and ../shared were found)".to_owned(),
        );
    }
    let count: usize = skips.values().map(Vec::len).sum();
    let parts: Vec<String> = skips
        .iter()
        .map(|((what, why), tests)| {
            let mut tests = tests.clone();
            tests.sort();
            format!("{what} ({why}): {}", tests.join(", "))
        })
        .collect();
    Some(format!(
        "loopconv tests: skipped {count} checks; {} (LOOPCONV_REQUIRE_TOOLS=1 makes each a failure)",
        parts.join("; ")
    ))
}

/// For a check that needs an installed tool: true (skip, recorded) when it is missing.
pub fn without_tool(available: bool, tool: &str) -> bool {
    if !available {
        skip(tool, "not installed");
    }
    !available
}
