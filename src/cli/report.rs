//! Reading one file with the global options, and printing its diagnostics.

use super::*;

pub(super) fn load_file(g: &Global, path: &Path, from: Option<Format>) -> Result<Loaded> {
    let limits = Limits {
        max_bytes: g.max_input_bytes,
        ..Limits::default()
    };
    let bytes = read_input(path, &limits)?;
    let name = path.display().to_string();
    let mut loaded = loopconv::load(&name, &bytes, &LoadOptions { from, limits });
    if g.strict {
        loaded.diags.make_strict();
    }
    Ok(loaded)
}

pub(super) fn use_color(g: &Global) -> bool {
    match g.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    }
}

/// Print diagnostics: human form on stderr; JSON (one array), SARIF (one log) or GitHub
/// workflow commands on stdout.
pub(super) fn report(g: &Global, diags: &Diagnostics, source: Option<&str>) {
    if diags.is_empty() {
        return;
    }
    match g.format {
        MessageFormat::Human => {
            eprint!(
                "{}",
                diag::render_human(diags.items(), source, use_color(g))
            );
        }
        MessageFormat::Json => {
            print!("{}", diag::render_json(diags.items()));
        }
        MessageFormat::Sarif => {
            print!("{}", diag::render_sarif(diags.items()));
        }
        MessageFormat::Github => {
            print!("{}", diag::render_github(diags.items()));
        }
    }
}

pub(super) fn report_loaded(g: &Global, l: &Loaded) {
    report(g, &l.diags, l.text());
}
