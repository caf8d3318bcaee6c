//! `loopconv explain`: the long form of a diagnostic code.

use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;

use loopconv::diag::docs;

use super::io::emit;

#[derive(Debug, Args)]
pub(super) struct ExplainArgs {
    /// A code (`V012`) or its name (`unreachable-phase`); without one, list every code.
    #[arg(value_name = "CODE")]
    code: Option<String>,
}

pub(super) fn run(a: &ExplainArgs) -> Result<ExitCode> {
    let Some(text) = &a.code else {
        let mut out = String::new();
        for row in docs::rows() {
            let summary = match row {
                docs::Row::Active(c) => c.summary().to_owned(),
                docs::Row::Retired(r) => format!("(retired) {}", r.summary),
            };
            out.push_str(&format!("{}  {:<28} {summary}\n", row.code(), row.name()));
        }
        emit(None, &out).map(drop)?;
        return Ok(ExitCode::SUCCESS);
    };
    // The configuration file's own codes (a usage error, not a loop diagnostic).
    let config = super::config::CODES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(text.trim()));
    if let Some((c, summary)) = config {
        let text = format!(
            "{c}: {summary}\n\nA problem in the configuration file (loopconv.toml, .loopconv.toml or \
             [tool.loopconv] in pyproject.toml): loopconv stops with exit code 2 and shows where. \
             The guide's Configuration chapter lists every key.\n"
        );
        emit(None, &text).map(drop)?;
        return Ok(ExitCode::SUCCESS);
    }
    let Some(found) = docs::find(text) else {
        bail!(
            "`{text}` is not a loopconv diagnostic code or name (run `loopconv explain` for the list)"
        );
    };
    let text = match found {
        docs::Row::Active(code) => docs::explain(code),
        docs::Row::Retired(r) => docs::explain_retired(r),
    };
    emit(None, &text).map(drop)?;
    Ok(ExitCode::SUCCESS)
}
