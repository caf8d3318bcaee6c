//! Writing: a back end, then the read-back check of a loop-format output.

use crate::back::{self, Error, Options};
use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::format::{Format, Target};
use crate::ir::Spec;
use crate::valid::Info;

use super::read::{LoadOptions, load};
use crate::tree::{DEFAULT_MAX_DEPTH, ReadLimits};

/// The read limits of a generated file: none but the largest input loopconv reads and the
/// nesting depth it reads.
const GENERATED: ReadLimits = ReadLimits {
    max_bytes: crate::tree::MAX_INPUT_BYTES,
    max_depth: DEFAULT_MAX_DEPTH,
    max_alias_events: usize::MAX,
    max_phases: usize::MAX,
    max_nodes: usize::MAX,
    max_diagnostics: crate::diag::DEFAULT_MAX_DIAGNOSTICS,
};

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

/// Read a generated loop file back; `B004` with every error it has. The size limits are
/// not the input's: they bound what an untrusted file may cost, and the output of a loop
/// that passed them is as large as the format makes it (an XState machine has a state per
/// phase and per checkpoint), so only its validity is judged; reading it needs the same
/// limits raised (`--max-phases`, ...). The nesting depth, which no flag raises, is kept:
/// an output nested deeper than loopconv reads is not written.
fn check_output(format: Format, text: &str, diags: &mut Diagnostics) {
    let name = format!("<{format} output>");
    let opts = LoadOptions {
        from: Some(format),
        limits: GENERATED,
        ..LoadOptions::default()
    };
    let back = load(&name, text.as_bytes(), &opts);
    let errors: Vec<&Diagnostic> = (back.diags.items().iter())
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if errors.is_empty() {
        return;
    }
    // Too deep is the input's nesting (a port schema) plus the levels the format adds.
    let help = if errors.iter().all(|d| d.code == Code::TooDeep) {
        format!(
            "nothing was written; the {format} format nests the input's deepest value (a port `schema`) more levels deep than the {DEFAULT_MAX_DEPTH} loopconv reads: nest it less"
        )
    } else if let Some(limit) = (errors.iter()).find(|d| {
        matches!(
            d.code,
            Code::TooLarge | Code::AliasLimit | Code::TooManyPhases
        )
    }) {
        // A limit of reading, not a bug: said with the limit and its flag.
        format!(
            "nothing was written; the {format} output is beyond a limit of what loopconv reads ({}): {}",
            limit.code,
            limit
                .help_text()
                .unwrap_or_else(|| "raise the limit".to_owned())
        )
    } else {
        "nothing was written; please report this loopconv bug with the input file".to_owned()
    };
    let mut d = Diagnostic::new(
        Code::InvalidOutput,
        format!("the generated {format} output does not pass validation"),
    )
    .with_help(help);
    for e in errors {
        d = d.with_note(format!("{}: {}", e.code, e.message));
    }
    diags.push(d);
}
