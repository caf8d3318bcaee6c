//! The AgentPM back end: `AgentPM -> MAS -> AgentPM` for loops of the shapes MAS can hold.

use crate::back::roundtrip::{convert, graph_key, lossy, mas_inputs, read, reread};
use crate::support;
use crate::support::{examples, rel};
use loopconv::ir::{Escalation, FixedLoop, LoopPattern};
use loopconv::{Format, back};

/// `AgentPM (REAL/VEAL shape) -> MAS -> AgentPM` keeps the graph. The shaped AgentPM files
/// are the conversions of every MAS input, plus the VEAL-shaped AgentPM file of
/// `examples/invalid/convert/` (valid, it only needs `--validator` to convert).
#[test]
fn shaped_agentpm_mas_agentpm() {
    let mut shaped: Vec<(String, String, Option<Escalation>, Option<String>)> = Vec::new();
    for path in mas_inputs() {
        let name = rel(&path);
        let (spec, info, _) = read(&path, Format::Mas);
        let (agentpm, _) = convert(&name, &spec, &info, Format::Agentpm, &lossy());
        shaped.push((
            format!("{name} (AgentPM)"),
            agentpm,
            spec.bounds.escalation,
            spec.roles.fallback_agent.clone(),
        ));
    }
    let b003 = examples().join("invalid/convert/B003-missing-role-flag.json");
    let (_, _, text) = read(&b003, Format::Agentpm);
    shaped.push((rel(&b003), text, None, None));

    for (name, text, escalation, fallback) in shaped {
        let (spec, info) = reread(&name, &text, Format::Agentpm);
        let shape =
            FixedLoop::recognise(&spec).unwrap_or_else(|| panic!("{name}: no REAL/VEAL shape"));
        let flags = back::Options {
            fallback_agent: fallback,
            ..support::lossy_options()
        };
        let (mas, _) = convert(&name, &spec, &info, Format::Mas, &flags);
        let (m_spec, m_info) = reread(&format!("{name} (MAS)"), &mas, Format::Mas);
        assert_eq!(m_spec.pattern, shape.fixed.pattern, "{name}: type");
        assert!(
            matches!(m_spec.pattern, LoopPattern::Real | LoopPattern::Veal),
            "{name}: type"
        );
        if let Some(e) = escalation {
            assert_eq!(
                m_spec.effective_escalation(),
                e,
                "{name}: escalation recovered from the graph"
            );
        }
        let (again, _) = convert(
            &format!("{name} (MAS)"),
            &m_spec,
            &m_info,
            Format::Agentpm,
            &lossy(),
        );
        let (a_spec, _) = reread(&format!("{name} (AgentPM again)"), &again, Format::Agentpm);
        assert_eq!(graph_key(&a_spec), graph_key(&spec), "{name}: graph");
    }
}
