//! `--format sarif`: one SARIF 2.1.0 log for code scanning (GitHub code scanning, GitLab,
//! Azure DevOps, the SARIF viewers), built with the `serde-sarif` types.
//!
//! The log has one run whose tool lists every code as a rule (id, kebab-case name, summary,
//! the long help from [`super::docs`] and a link to it), and one result per diagnostic with
//! its level, message (notes and help on further lines), physical location and `fixes`:
//! one per suggestion that is a replacement of located text (an unknown id or key replaced
//! by the declared one, a value set), a region given by lines and columns. Columns are
//! counted in Unicode code points, as in loopconv's other outputs, and the run says so
//! (`columnKind`).

use serde_sarif::sarif::{
    ArtifactChange, ArtifactContent, ArtifactLocation, Fix, Location as SarifLocation, Message,
    MultiformatMessageString, PhysicalLocation, Region, Replacement, ReportingConfiguration,
    ReportingDescriptor, Result as SarifResult, ResultLevel, Run, Sarif, Tool, ToolComponent,
};

use super::{Code, Diagnostic, Severity, Suggestion, docs};

/// Render diagnostics (of any number of files) as one SARIF 2.1.0 log (pretty JSON).
pub fn render_sarif(diags: &[Diagnostic]) -> String {
    let driver = ToolComponent::builder()
        .name("loopconv")
        .version(env!("CARGO_PKG_VERSION"))
        .information_uri(docs::README_URL)
        .rules(Code::ALL.iter().map(|&c| rule(c)).collect::<Vec<_>>())
        .build();
    log(driver, diags.iter().map(result).collect())
}

/// A SARIF 2.1.0 log of one run of `driver` with `results` (pretty JSON, a final newline);
/// columns counted in Unicode code points, as in loopconv's other outputs.
pub(crate) fn log(driver: ToolComponent, results: Vec<SarifResult>) -> String {
    let run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .results(results)
        .column_kind(serde_json::json!("unicodeCodePoints"))
        .build();
    let log = Sarif::builder()
        .schema(serde_sarif::sarif::SCHEMA_URL)
        .version(serde_json::json!("2.1.0"))
        .runs(vec![run])
        .build();
    let mut text = serde_json::to_string_pretty(&log).unwrap_or_default();
    text.push('\n');
    text
}

fn rule(code: Code) -> ReportingDescriptor {
    let help = docs::help_markdown(code);
    ReportingDescriptor::builder()
        .id(code.as_str())
        .name(code.name())
        .short_description(text(code.summary()))
        .full_description(text(code.doc().checks))
        .help(
            MultiformatMessageString::builder()
                .text(help.clone())
                .markdown(help)
                .build(),
        )
        .help_uri(docs::help_uri(code))
        .default_configuration(
            ReportingConfiguration::builder()
                .level(serde_json::json!(level_name(code.severity())))
                .build(),
        )
        .build()
}

fn text(s: &str) -> MultiformatMessageString {
    MultiformatMessageString::builder().text(s).build()
}

fn level_name(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn result(d: &Diagnostic) -> SarifResult {
    let level = match d.severity {
        Severity::Error => ResultLevel::Error,
        Severity::Warning => ResultLevel::Warning,
        Severity::Note => ResultLevel::Note,
    };
    // The message is read by people: without the characters `text::lines` drops.
    let message = crate::text::lines(&d.full_message()).into_owned();
    let index = Code::ALL.iter().position(|&c| c == d.code).unwrap_or(0);
    let fixes: Vec<Fix> = d.suggestions.iter().filter_map(|s| fix(d, s)).collect();
    let result = SarifResult::builder()
        .rule_id(d.code.as_str())
        .rule_index(i64::try_from(index).unwrap_or(0))
        .level(level)
        .message(Message::builder().text(message).build())
        .locations(vec![location(&d.location, None)]);
    let related: Vec<SarifLocation> = d
        .labels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let message = crate::text::lines(&l.message).into_owned();
            let mut at = location(&l.location, Some(message));
            at.id = i64::try_from(i).ok();
            at
        })
        .collect();
    match (fixes.is_empty(), related.is_empty()) {
        (true, true) => result.build(),
        (false, true) => result.fixes(fixes).build(),
        (true, false) => result.related_locations(related).build(),
        (false, false) => result.fixes(fixes).related_locations(related).build(),
    }
}

/// The fix of a suggestion that replaces located text: its region by lines and columns (so
/// that a byte-order mark, which positions do not count, cannot shift it).
fn fix(d: &Diagnostic, s: &Suggestion) -> Option<Fix> {
    let edits = s.replacements()?;
    let targets = s.targets();
    let mut replacements = Vec::with_capacity(edits.len());
    for ((start, text), target) in edits.into_iter().zip(targets) {
        let end = target.end?;
        let region = Region::builder()
            .start_line(i64::from(start.line.max(1)))
            .start_column(i64::from(start.column.max(1)))
            .end_line(i64::from(end.line.max(1)))
            .end_column(i64::from(end.column.max(1)))
            .build();
        replacements.push(
            Replacement::builder()
                .deleted_region(region)
                .inserted_content(ArtifactContent::builder().text(text).build())
                .build(),
        );
    }
    let change = ArtifactChange::builder()
        .artifact_location(
            ArtifactLocation::builder()
                .uri(file_uri(&d.location))
                .build(),
        )
        .replacements(replacements)
        .build();
    Some(
        Fix::builder()
            .description(Message::builder().text(s.help_text()).build())
            .artifact_changes(vec![change])
            .build(),
    )
}

/// A location by lines and columns, with the message of a related location.
fn location(at: &crate::diag::Location, message: Option<String>) -> SarifLocation {
    let artifact = ArtifactLocation::builder().uri(file_uri(at)).build();
    let physical = match at.pos {
        Some(p) => PhysicalLocation::builder()
            .artifact_location(artifact)
            .region(
                Region::builder()
                    .start_line(i64::from(p.line.max(1)))
                    .start_column(i64::from(p.column.max(1)))
                    .build(),
            )
            .build(),
        None => PhysicalLocation::builder()
            .artifact_location(artifact)
            .build(),
    };
    let mut location = SarifLocation::builder().physical_location(physical).build();
    location.message = message.map(|m| Message::builder().text(m).build());
    location
}

/// The URI of a location's file, from the bytes of its name ([`crate::diag::Location::file_bytes`]
/// when the name is not UTF-8).
fn file_uri(at: &crate::diag::Location) -> String {
    uri(at.file_bytes.as_deref().unwrap_or(at.file.as_bytes()))
}

/// A file name, as bytes, as a URI reference: relative paths stay relative (code scanning
/// resolves them against the repository root), absolute ones become `file://` URIs;
/// every byte outside the unreserved set and `/` is percent-encoded (a name that is not
/// UTF-8 keeps its bytes). A `\` is a separator only where it is one ([`BACKSLASH_SEPARATES`]).
pub(crate) fn uri(path: &[u8]) -> String {
    let mut out = String::new();
    if path.first().copied().is_some_and(is_separator) {
        out.push_str("file://");
    }
    for &b in path {
        match b {
            b'\\' if BACKSLASH_SEPARATES => out.push('/'),
            _ if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) => out.push(char::from(b)),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Whether `\` separates folders in a file name: on Windows. Elsewhere it is a byte of the
/// name like any other, percent-encoded, so that `back\slash.json` and `\lead.json` never
/// become the URIs of other files (`back/slash.json`, `file:///lead.json`).
const BACKSLASH_SEPARATES: bool = cfg!(windows);

/// Whether `b` separates folders in a file name.
fn is_separator(b: u8) -> bool {
    b == b'/' || (BACKSLASH_SEPARATES && b == b'\\')
}

#[cfg(test)]
mod tests {

    use super::uri;
    use crate::diag::{Code, Diagnostic, render_sarif};
    #[test]
    fn uris_are_encoded() {
        assert_eq!(uri(b"examples/a b.json"), "examples/a%20b.json");
        assert_eq!(uri("/tmp/é.yaml".as_bytes()), "file:///tmp/%C3%A9.yaml");
        let (sep, lead) = if cfg!(windows) {
            ("dir/x.json", "file:///x.json")
        } else {
            ("dir%5Cx.json", "%5Cx.json")
        };
        assert_eq!(uri(b"dir\\x.json"), sep);
        assert_eq!(uri(b"\\x.json"), lead);
        // A name that is not UTF-8 keeps its bytes.
        assert_eq!(uri(b"loops/a\xffb.json"), "loops/a%FFb.json");
    }

    /// The bytes a sink is given name the file of its diagnostics in SARIF, those pushed
    /// before and after; the file as shown stays the given name.
    #[test]
    fn file_bytes_make_the_uri() {
        let mut diags = crate::diag::Diagnostics::new("a\u{fffd}.json");
        diags.push(Diagnostic::new(Code::EmptyInput, "before").with_label("", "here"));
        diags.set_file_bytes(b"a\xfe.json".to_vec());
        diags.push(Diagnostic::new(Code::EmptyInput, "after"));
        let log: serde_json::Value =
            serde_json::from_str(&render_sarif(diags.items())).expect("JSON");
        let results = log["runs"][0]["results"].as_array().expect("results");
        let uris: Vec<&serde_json::Value> = results
            .iter()
            .flat_map(|r| {
                let related = r["relatedLocations"].as_array().into_iter().flatten();
                r["locations"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .chain(related)
            })
            .map(|l| &l["physicalLocation"]["artifactLocation"]["uri"])
            .collect();
        assert_eq!(uris, ["a%FE.json", "a%FE.json", "a%FE.json"]);
        assert_eq!(diags.items()[0].location.file, "a\u{fffd}.json");
    }
}
