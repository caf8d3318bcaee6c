//! Writing: a back end, then the read-back check of a loop-format output.

use crate::back::{self, Error, Options};
use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::format::{Format, Target};
use crate::ir::Spec;
use crate::valid::Info;

use super::read::{LoadOptions, load};

/// Write `spec` with a back end ([`back::render`]). A loop-format output is then read back
/// and validated: a conversion never hands out a file that loopconv itself would reject
/// (`B004`).
pub fn write(
    target: Target,
    spec: &Spec,
    info: &Info,
    opts: &Options,
    diags: &mut Diagnostics,
) -> Result<String, Error> {
    let text = back::render(target, spec, info, opts, diags)?;
    if let Some(format) = target.format()
        && !diags.has_errors()
    {
        check_output(format, &text, diags);
    }
    Ok(text)
}

/// Read a generated loop file back; `B004` with every error it has.
fn check_output(format: Format, text: &str, diags: &mut Diagnostics) {
    let name = format!("<{format} output>");
    let opts = LoadOptions {
        from: Some(format),
        ..LoadOptions::default()
    };
    let back = load(&name, text.as_bytes(), &opts);
    let problems: Vec<String> = back
        .diags
        .items()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    if problems.is_empty() {
        return;
    }
    let mut d = Diagnostic::new(
        Code::InvalidOutput,
        format!("the generated {format} output does not pass validation"),
    )
    .with_help("nothing was written; please report this loopconv bug with the input file");
    for p in problems {
        d = d.with_note(p);
    }
    diags.push(d);
}
