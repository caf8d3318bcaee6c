//! Markup safety (issue 4, item 5): hostile strings in every free-text field are drawn and
//! written as literal text by every back end, and user text is never evaluated by minijinja.
//!
//! * [`HOSTILE`] is the corpus, in one place: Mermaid, DOT and PlantUML syntax, HTML and
//!   script tags, Markdown table/link/heading syntax, template syntax (`{{ }}`, `{% %}`),
//!   YAML and JSON look-alikes, control characters, bidirectional controls, zero-width
//!   characters, noncharacters, non-Latin scripts and emoji; [`long_string`] adds a 100 KB
//!   string.
//! * For each string, three loops hold it in **every** free-text field at once (an AgentPM
//!   manifest, a VEAL and a REAL multi-agent-spec loop; see [`agentpm_matrix`] and
//!   [`mas_matrix`]). Each loop is read through `loopconv::load` and sent through
//!   every back end:
//!   - Mermaid (both styles): every line has one of the forms the writer emits, user text
//!     inside labels is only letters, digits, harmless punctuation and `#NN;` entity codes,
//!     and every label decodes back to the (cleaned, shortened) original;
//!   - DOT: a small tokenizer accepts the whole output (quoted strings with only `\"` and
//!     `\\` escapes and `&amp;` as the only entity; HTML-like labels with only the writer's
//!     tags and escaped text); labels and tooltips decode back to the original; and, when
//!     `dot` is installed, Graphviz renders every output without a warning;
//!   - PlantUML: every line has one of the forms the writer emits, user text is only
//!     letters, digits, spaces and `<U+XXXX>` codes, and every label decodes back to the
//!     original; when `plantuml` is installed, PlantUML renders every output without an
//!     error, and each title, state text and edge label is drawn as text in the SVG;
//!   - Markdown: parsed with pulldown-cmark, the page has exactly the block and inline
//!     structure of the same loop with harmless text (no HTML, link, image, heading, list,
//!     emphasis... from user text), every field reads as written, and the template was not
//!     evaluated (`{{ 7*7 }}` is not `49`, `range(3)` is not expanded);
//!   - AgentPM, MAS and IR: the output read back holds the exact strings;
//!   - terminal diagnostics (`render_human`) of loops made invalid around the hostile text
//!     hold no control character other than newline.
//! * The committed examples in `examples/hostile/` (rendered by `scripts/conformance.sh`
//!   through the real Graphviz, Mermaid and PlantUML) are generated from the same corpus by
//!   [`hostile_examples_are_up_to_date`]; regenerate them with
//!   `LOOPCONV_BLESS=1 cargo test --test suite markup_safety` and commit the diff.

mod cases;
mod conversions;
mod corpus;
mod diagram;
mod dot;
mod examples;
mod markdown;
mod mermaid;
mod person_text;
mod plantuml;
mod terminal;

use self::cases::{Case, cases_for};
use self::conversions::{check_module, check_round_trips};
use self::corpus::hostile;
use self::diagram::check_diagram_text;
use self::dot::{check_dot, render_with_graphviz};
use self::markdown::{benign_skeleton, check_markdown};
use self::mermaid::check_mermaid_both;
use self::plantuml::{Puml, check_plantuml, render_with_plantuml};
use self::terminal::check_terminal;
use loopconv::back;
use loopconv::back::support::diagram::{Diagram, Tooltips};
// ---------------------------------------------------------------------------------------
// What "literal text" means, written independently of the back ends.

/// Dropped from drawn and Markdown text: controls (whitespace controls are folded instead),
/// Unicode's default-ignorable code points but the joiners and variation selectors (the
/// bidirectional controls, zero-width space, word joiner and invisible operators, byte-order
/// mark, soft hyphen, Hangul fillers, tags, ...), the interlinear annotation controls and
/// the noncharacters. Read from the Unicode Character Database (`icu_properties`), not
/// from loopconv's own table, so that a wrong entry in the sanitizer is caught.
pub(crate) fn invisible(c: char) -> bool {
    use icu_properties::CodePointSetData;
    use icu_properties::props::{
        DefaultIgnorableCodePoint, NoncharacterCodePoint, VariationSelector,
    };
    /// Default-ignorable, but what correct text needs: the zero-width non-joiner and
    /// joiner and the combining grapheme joiner (the variation selectors are their own
    /// property).
    const KEPT: [char; 3] = ['\u{200C}', '\u{200D}', '\u{034F}'];
    /// The interlinear annotation controls: `Cf`, not default-ignorable, and they hide or
    /// move text.
    const ANNOTATION: std::ops::RangeInclusive<char> = '\u{FFF9}'..='\u{FFFB}';
    let ignorable = CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
        && !KEPT.contains(&c)
        && !CodePointSetData::new::<VariationSelector>().contains(c);
    (c.is_control() && !c.is_whitespace())
        || ignorable
        || ANNOTATION.contains(&c)
        || CodePointSetData::new::<NoncharacterCodePoint>().contains(c)
}

/// The oracle agrees with the sanitizer on every code point.
#[test]
fn the_oracle_from_unicode_data_is_the_sanitizer() {
    let differ: Vec<String> = ('\0'..=char::MAX)
        .filter(|&c| invisible(c) != loopconv::text::is_dropped(c))
        .map(|c| format!("U+{:04X} (oracle {})", u32::from(c), invisible(c)))
        .collect();
    assert!(differ.is_empty(), "{}", differ.join(", "));
}

/// Every character Unicode calls a control, a format character or a separator
/// (General_Category `Cc`, `Cf`, `Zl`, `Zp`) is dropped by the sanitizer, or is one of
/// the few the contract of `loopconv::text` keeps, each named by a Unicode property rather
/// than by code point: whitespace (folded by the outputs), the joiners (`Join_Control`),
/// the prepended concatenation marks (`Prepended_Concatenation_Mark`: the Arabic number
/// signs, which draw a visible sign) and the Egyptian hieroglyph format controls (script
/// `Egyptian_Hieroglyphs`: they draw the arrangement of the signs). A format character
/// Unicode adds, or that the sanitizer's table misses, is named here instead of passing
/// unseen; private use characters (`Co`) and unassigned ones (`Cn`) outside the sets above
/// draw a glyph (or a box) and are kept.
#[test]
fn every_control_and_format_character_is_dropped_or_named() {
    use icu_properties::props::{GeneralCategory, JoinControl, PrependedConcatenationMark, Script};
    use icu_properties::{CodePointMapData, CodePointSetData};
    let category = CodePointMapData::<GeneralCategory>::new();
    let script = CodePointMapData::<Script>::new();
    let joiner = CodePointSetData::new::<JoinControl>();
    let concatenation = CodePointSetData::new::<PrependedConcatenationMark>();
    let kept = |c: char| {
        c.is_whitespace()
            || joiner.contains(c)
            || concatenation.contains(c)
            || (category.get(c) == GeneralCategory::Format
                && script.get(c) == Script::EgyptianHieroglyphs)
    };
    let mut checked = 0;
    let wrong: Vec<String> = ('\0'..=char::MAX)
        .filter(|&c| {
            matches!(
                category.get(c),
                GeneralCategory::Control
                    | GeneralCategory::Format
                    | GeneralCategory::LineSeparator
                    | GeneralCategory::ParagraphSeparator
            )
        })
        .inspect(|_| checked += 1)
        .filter(|&c| loopconv::text::is_dropped(c) == kept(c))
        .map(|c| {
            format!(
                "U+{:04X} ({:?}, dropped: {})",
                u32::from(c),
                category.get(c),
                loopconv::text::is_dropped(c)
            )
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join(", "));
    // The walk saw the categories (the 65 Cc alone, and over a hundred Cf).
    assert!(checked > 200, "{checked} code points checked");
}

/// The text as it must read once drawn: invisible characters dropped, whitespace folded.
pub(crate) fn visible(s: &str) -> String {
    let kept: String = s
        .chars()
        .filter(|&c| !invisible(c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text as it must read in Markdown: controls become spaces, the other invisible
/// characters are dropped, whitespace is folded.
pub(crate) fn md_visible(s: &str) -> String {
    let kept: String = s
        .chars()
        .filter(|&c| c.is_control() || !invisible(c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(crate) fn no_space(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// `shown` is `full` (whitespace apart), or a prefix of it ending with `…`.
pub(crate) fn assert_shortened(shown: &str, full: &str, what: &str) {
    let (s, f) = (no_space(shown), no_space(full));
    if s == f {
        return;
    }
    let cut = s.strip_suffix(back::support::diagram::ELLIPSIS);
    assert!(
        cut.is_some_and(|c| f.starts_with(c)),
        "{what}: {shown:?} is neither {full:?} nor a shortening of it"
    );
}

// ---------------------------------------------------------------------------------------
// The matrix.

pub(crate) fn run_case(
    case: &Case,
    benign: &[String],
    dots: &mut Vec<(String, String)>,
    pumls: &mut Vec<Puml>,
) {
    let (spec, info) = case.valid();
    // A valid loop reads without a single warning (but the interoperability one).
    assert!(
        case.loaded.diags.items().iter().all(|d| is_interop(d.code)),
        "{}: {:?}",
        case.label,
        case.loaded.diags.items()
    );
    let d = Diagram::new(spec, info, Tooltips::Built);
    check_diagram_text(case, spec, &d);
    check_mermaid_both(case, spec, info, &d);
    dots.push((case.label.clone(), check_dot(case, spec, info, &d)));
    pumls.push(check_plantuml(case, spec, info, &d));
    check_markdown(case, spec, info, benign);
    check_round_trips(case, spec, info);
    check_module(case, spec, info);
    if case.hostile.len() < 1000 {
        check_terminal(case);
    }
}

#[test]
fn hostile_strings_in_every_field_stay_literal_text() {
    let started = std::time::Instant::now();
    let benign: Vec<Vec<String>> = cases_for("benign", "plain text")
        .iter()
        .map(benign_skeleton)
        .collect();
    let all = hostile();
    // Two threads: the matrix has a few hundred loops.
    let (dots, pumls): (Vec<(String, String)>, Vec<Puml>) = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|k| {
                let (benign, all) = (&benign, &all);
                scope.spawn(move || {
                    let (mut dots, mut pumls) = (Vec::new(), Vec::new());
                    // The 100 KB string (last) first, the others dealt round-robin.
                    for (cat, s) in all.iter().rev().skip(k).step_by(2) {
                        for (case, b) in cases_for(cat, s).iter().zip(benign) {
                            run_case(case, b, &mut dots, &mut pumls);
                        }
                    }
                    (dots, pumls)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("matrix thread"))
            .fold((Vec::new(), Vec::new()), |(mut d, mut p), (d2, p2)| {
                d.extend(d2);
                p.extend(p2);
                (d, p)
            })
    });
    assert_eq!(dots.len(), all.len() * 3 - 2);
    render_with_graphviz(&dots);
    render_with_plantuml(&pumls);
    eprintln!(
        "{} hostile strings x 3 loops x every back end in {:?}",
        all.len(),
        started.elapsed()
    );
}

/// The interoperability warnings (a port `schema` in multi-agent-spec YAML, read or written).
pub(crate) fn is_interop(code: loopconv::diag::Code) -> bool {
    matches!(
        code,
        loopconv::diag::Code::YamlPortSchema
            | loopconv::diag::Code::WrittenPortSchema
            // A hostile string in a `pattern` check is seldom a valid regular expression:
            // the check can never run (`V106`), which is the right verdict.
            | loopconv::diag::Code::CheckCannotRun
    )
}
