//! Checks shared by the diagram syntaxes: the diagram model's texts.

use super::{assert_shortened, visible};
use crate::markup_safety::cases::Case;
use loopconv::back::support::diagram::{Diagram, NodeKind};
use loopconv::ir::Spec;
use loopconv::{Format, back};
// ---------------------------------------------------------------------------------------
// Markdown.

/// Text without word joiners (the Mermaid writer adds some; see `mermaid::JOINER`).
pub(crate) fn unjoined(s: &str) -> String {
    s.replace(back::mermaid::JOINER, "")
}

/// The drawing with every text [`unjoined`], to compare with decoded Mermaid labels.
pub(crate) fn without_joiners<'a>(d: &Diagram<'a>) -> Diagram<'a> {
    let mut d = d.clone();
    let u = |s: &mut String| *s = unjoined(s);
    let t = |s: &mut back::support::diagram::Text| *s = unjoined(s).into();
    t(&mut d.title);
    d.subtitle.iter_mut().for_each(u);
    d.description.iter_mut().for_each(t);
    for n in &mut d.nodes {
        t(&mut n.title);
        n.lines.iter_mut().for_each(t);
        n.access.iter_mut().for_each(u);
        n.role.iter_mut().for_each(u);
    }
    for e in &mut d.edges {
        t(&mut e.label);
        e.note.iter_mut().for_each(u);
    }
    d
}

/// The pieces of a node label as the writer lays them out, from the [`Diagram`].
pub(crate) fn node_pieces(n: &back::support::diagram::DiagramNode) -> Vec<String> {
    let mut v = vec![n.title.to_string()];
    v.extend(n.lines.iter().map(|l| l.to_string()));
    if n.kind == NodeKind::Phase {
        v.extend(n.access.iter().cloned());
        v.extend(n.role.iter().cloned());
    }
    v.retain(|p| !p.is_empty());
    v
}

/// The drawing relates to the original text: phase labels and roles are the visible text,
/// whole or shortened.
pub(crate) fn check_diagram_text(case: &Case, spec: &Spec, d: &Diagram) {
    let what = &case.label;
    let s = &case.hostile;
    assert_eq!(
        back::support::diagram::clean(s),
        visible(s),
        "{what}: clean"
    );
    for (i, p) in spec.graph.phases.iter().enumerate() {
        let Some(n) = d.node(back::support::diagram::NodeId::Phase(i)) else {
            continue;
        };
        assert_shortened(&n.lines.join(" "), &visible(&p.objective), what);
        if spec.source_format == Format::Agentpm
            && visible(s).chars().count() <= back::support::diagram::LINE_WIDTH
            && !visible(s).is_empty()
        {
            assert_eq!(
                n.lines.iter().map(|l| l.to_string()).collect::<Vec<_>>(),
                vec![visible(s)],
                "{what}: short objective drawn whole"
            );
        }
    }
    for (role, value) in [
        ("validator: ", &spec.roles.validator),
        ("actor: ", &spec.roles.actor),
    ] {
        let Some(v) = value else { continue };
        let shown = d
            .nodes
            .iter()
            .filter_map(|n| n.role.as_deref())
            .find_map(|r| r.strip_prefix(role))
            .unwrap_or_else(|| panic!("{what}: no {role}line"));
        assert_shortened(shown, &visible(v), what);
    }
    if let Some(f) = &spec.roles.fallback_agent {
        let note = d
            .edges
            .iter()
            .find_map(|e| e.note.as_deref())
            .and_then(|n| n.strip_prefix("escalation: fallback → "))
            .unwrap_or_else(|| panic!("{what}: no fallback note"));
        assert_shortened(note, &visible(f), what);
    }
    if let Some(desc) = &d.description {
        assert_shortened(
            desc,
            &visible(spec.description.as_deref().unwrap_or("")),
            what,
        );
    }
}
