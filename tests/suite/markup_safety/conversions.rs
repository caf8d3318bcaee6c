//! Hostile strings survive every conversion exactly.

use super::{invisible, is_interop};
use crate::markup_safety::cases::{Case, free_text};
use loopconv::back;
use loopconv::diag::{self, Severity};
use loopconv::ir::Spec;
use loopconv::valid::Info;
use loopconv::{Format, LoadOptions};
// ---------------------------------------------------------------------------------------
// Markdown.

// ---------------------------------------------------------------------------------------
// Loop formats and terminal output.

pub(crate) fn check_round_trips(case: &Case, spec: &Spec, info: &Info) {
    let own = match spec.source_format {
        Format::Agentpm => Format::Agentpm,
        Format::Mas | Format::Ir | Format::Xstate => Format::Mas,
    };
    let expected = free_text(spec);
    assert!(
        expected
            .iter()
            .any(|(_, v)| v.as_str() == Some(case.hostile.as_str())),
        "{}: the hostile text is in no field",
        case.label
    );
    for to in [own, Format::Ir] {
        let what = format!("{} -> {}", case.label, to.name());
        let mut diags = diag::Diagnostics::new("test");
        let out = loopconv::write(
            loopconv::Target::Loop(to),
            spec,
            info,
            &back::Options::default(),
            &mut diags,
        )
        .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(
            diags.items().iter().all(|d| is_interop(d.code)),
            "{what}: {:?}",
            diags.items()
        );
        let path = format!("out.{}", to.extension());
        let back = loopconv::load(&path, out.as_bytes(), &LoadOptions::default());
        let (bspec, _) = back
            .valid()
            .unwrap_or_else(|| panic!("{what}: output invalid: {:?}\n{out}", back.diags.items()));
        assert_eq!(free_text(bspec), expected, "{what}\n{out}");
        assert!(
            back.diags
                .items()
                .iter()
                .all(|d| d.severity != Severity::Error),
            "{what}"
        );
    }
}

pub(crate) fn check_round_trips_all(case: &Case, spec: &Spec, info: &Info) {
    let own = match spec.source_format {
        Format::Agentpm => Format::Agentpm,
        Format::Mas | Format::Ir | Format::Xstate => Format::Mas,
    };
    for to in [own, Format::Ir] {
        let mut diags = diag::Diagnostics::new("test");
        let out = loopconv::write(
            loopconv::Target::Loop(to),
            spec,
            info,
            &back::Options::default(),
            &mut diags,
        )
        .expect("writes");
        assert!(
            diags.items().iter().all(|d| is_interop(d.code)),
            "{}: {:?}",
            case.label,
            diags.items()
        );
        let back = loopconv::load(
            &format!("x.{}", to.extension()),
            out.as_bytes(),
            &LoadOptions::default(),
        );
        let (bspec, _) = back.valid().expect("output valid");
        assert_eq!(
            free_text(bspec),
            free_text(spec),
            "{} -> {}",
            case.label,
            to.name()
        );
    }
}

/// The XState machine as a JavaScript or TypeScript module holds no invisible character
/// raw ("Trojan Source": a bidirectional control in a string literal reorders how the code
/// reads), the joiners included: each is a `\u` escape of the same string.
pub(crate) fn check_module(case: &Case, spec: &Spec, info: &Info) {
    let mut diags = diag::Diagnostics::new("test");
    let json = loopconv::write(
        loopconv::Target::Loop(Format::Xstate),
        spec,
        info,
        &back::Options::default(),
        &mut diags,
    )
    .unwrap_or_else(|e| panic!("{}: {e}", case.label));
    for language in [
        back::xstate::ModuleLanguage::Js,
        back::xstate::ModuleLanguage::Ts,
    ] {
        let code = back::xstate::module(&json, language);
        let raw: Vec<char> = code
            .chars()
            .filter(|&c| {
                invisible(c)
                    || matches!(
                        c,
                        '\u{2028}' | '\u{2029}' | '\u{200C}' | '\u{200D}' | '\u{034F}'
                    )
            })
            .collect();
        assert!(raw.is_empty(), "{}: {raw:?} raw in the module", case.label);
    }
}
