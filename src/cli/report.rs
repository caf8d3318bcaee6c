//! Reading one file with the global options, and printing its diagnostics.

use super::*;

pub(super) fn load_file(g: &Global, path: &Path, from: Option<Format>) -> Result<Loaded> {
    let limits = Limits {
        max_bytes: g.max_input_bytes,
        max_phases: g.max_phases,
        max_nodes: g.max_values,
        ..Limits::default()
    };
    let bytes = read_input(path, &limits)?;
    crate::memory_for_input(bytes.len());
    let name = display_name(g, path);
    let mut loaded = loopconv::load_owned(&name, bytes, &LoadOptions { from, limits });
    if g.strict {
        loaded.diags.make_strict();
    }
    Ok(loaded)
}

/// How diagnostics and pages name an input: its path, or `--stdin-name` for `-`.
pub(super) fn display_name(g: &Global, path: &Path) -> String {
    if is_stdio(path) {
        g.stdin_name.clone()
    } else {
        path.display().to_string()
    }
}

pub(super) fn use_color(g: &Global) -> bool {
    match g.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => auto_color(
            |k| std::env::var_os(k).map(|v| v.to_string_lossy().into_owned()),
            std::io::stderr().is_terminal(),
        ),
    }
}

/// `--color auto`, by the usual conventions: a non-empty `NO_COLOR` turns colour off
/// (no-color.org); so does `TERM=dumb`; a `CLICOLOR_FORCE` other than empty or `0` turns
/// it on even when stderr is not a terminal (bixense.com/clicolors); otherwise colour when
/// stderr is a terminal.
pub(super) fn auto_color(var: impl Fn(&str) -> Option<String>, terminal: bool) -> bool {
    let set = |k: &str| var(k).is_some_and(|v| !v.is_empty());
    if set("NO_COLOR") {
        return false;
    }
    if var("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") {
        return true;
    }
    terminal && var("TERM").is_none_or(|t| t != "dumb")
}

/// Print diagnostics on stderr, rendered for people, as one JSON array, one SARIF log or
/// GitHub workflow commands. (Only `check`, whose report is its result, prints the
/// machine-readable forms on stdout; see `check`.)
pub(super) fn report(g: &Global, diags: &Diagnostics, source: Option<&str>) {
    if diags.is_empty() {
        return;
    }
    match g.format {
        MessageFormat::Human | MessageFormat::Markdown => {
            eprint!(
                "{}",
                diag::render_human(diags.items(), source, use_color(g))
            );
        }
        MessageFormat::Json => {
            eprint!("{}", diag::render_json(diags.items()));
        }
        MessageFormat::Sarif => {
            eprint!("{}", diag::render_sarif(diags.items()));
        }
        MessageFormat::Github => {
            eprint!("{}", diag::render_github(diags.items()));
        }
    }
}

pub(super) fn report_loaded(g: &Global, l: &Loaded) {
    report(g, &l.diags, l.text());
}
