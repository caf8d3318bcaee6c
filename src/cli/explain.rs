//! `loopconv explain`: the long form of a diagnostic code.

use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;

use loopconv::diag::{self, docs};

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
        for c in diag::Code::ALL {
            out.push_str(&format!("{c}  {:<28} {}\n", c.name(), c.summary()));
        }
        emit(None, &out)?;
        return Ok(ExitCode::SUCCESS);
    };
    let Some(code) = docs::lookup(text) else {
        bail!(
            "`{text}` is not a loopconv diagnostic code or name (run `loopconv explain` for the list)"
        );
    };
    emit(None, &docs::explain(code))?;
    Ok(ExitCode::SUCCESS)
}
