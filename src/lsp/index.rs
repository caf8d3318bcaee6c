//! What the language server knows about one document: the phases, outcomes, checkpoints
//! and transitions declared in it and every reference to a phase or an outcome, each with
//! its byte range, read from the located tree ([`crate::tree`]).
//!
//! The index is built from the tree alone, so it also exists for a loop whose shape is
//! wrong (and the server keeps the last one of a buffer that does not parse, for
//! completion while typing). It recognises the keys of AgentPM manifests and of
//! loopconv's IR (multi-agent-spec loops have fixed phases and no references), and the
//! states of XState machines ([`super::index_xstate`]).

use crate::tree::{Document, Member, Node, Str, Value};

/// A byte range.
pub type ByteRange = (usize, usize);

/// A declared phase.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseDecl {
    /// The id.
    pub id: Str,
    /// The range of the id's value.
    pub id_span: ByteRange,
    /// The range of the whole phase object.
    pub span: ByteRange,
    /// The objective, when it is a string.
    pub objective: Option<String>,
    /// The range of the access block, when present (hover shows it, read from the tree).
    pub access: Option<ByteRange>,
    /// The declared outcomes (none: the implicit outcome `complete`).
    pub outcomes: Vec<OutcomeDecl>,
}

/// A declared outcome of a phase.
#[derive(Debug, Clone, PartialEq)]
pub struct OutcomeDecl {
    /// The id.
    pub id: Str,
    /// The range of the id's value.
    pub id_span: ByteRange,
    /// The range of the outcome object.
    pub span: ByteRange,
    /// The description, when it is a string.
    pub description: Option<String>,
}

/// A declared approval checkpoint.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckpointDecl {
    /// The id (empty when missing).
    pub id: Str,
    /// The range of the id's value (of the object when the id is missing).
    pub id_span: ByteRange,
    /// The range of the checkpoint object.
    pub span: ByteRange,
}

/// A transition.
#[derive(Debug, Clone, PartialEq)]
pub struct TransitionDecl {
    /// `from`, when it is a string.
    pub from: Option<Str>,
    /// `on`, when it is a string.
    pub on: Option<Str>,
    /// `to`, when it is a string.
    pub to: Option<Str>,
    /// The range of the transition object.
    pub span: ByteRange,
}

/// Which key holds a reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefKind {
    /// `entry_phase` (AgentPM), the IR graph's `entry`, or a machine's `initial` (XState).
    Entry,
    /// A transition's `from`.
    From,
    /// A transition's `to` (a phase or a terminal).
    To,
    /// A checkpoint's `before_phase`.
    BeforePhase,
    /// A checkpoint's `on_reject` (a phase or a terminal).
    OnReject,
    /// A transition's `on`: an outcome of the transition's `from` phase.
    On,
}

impl RefKind {
    /// The keys that hold such a reference in an AgentPM manifest or an IR file, as written
    /// there (the entry: AgentPM's `entry_phase`, the IR graph's `entry`).
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            RefKind::Entry => &["entry_phase", "entry"],
            RefKind::From => &["from"],
            RefKind::To => &["to"],
            RefKind::BeforePhase => &["before_phase"],
            RefKind::OnReject => &["on_reject"],
            RefKind::On => &["on"],
        }
    }

    /// Whether the key may also name a terminal.
    pub fn allows_terminal(self) -> bool {
        matches!(self, RefKind::To | RefKind::OnReject)
    }
}

/// A reference to a phase (or terminal), or to an outcome (`on`).
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// Which key.
    pub kind: RefKind,
    /// The id referred to.
    pub id: Str,
    /// The range of the value.
    pub span: ByteRange,
    /// For `on`: the transition's `from` phase.
    pub phase: Option<Str>,
}

/// Everything declared and referenced in one document.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Index {
    /// Phases, in source order (duplicates included).
    pub phases: Vec<PhaseDecl>,
    /// Checkpoints, in source order.
    pub checkpoints: Vec<CheckpointDecl>,
    /// Transitions, in source order.
    pub transitions: Vec<TransitionDecl>,
    /// References, in source order.
    pub refs: Vec<Reference>,
    /// The range of the transitions array, when there is one.
    pub transitions_span: Option<ByteRange>,
}

/// What is at a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Symbol {
    /// A phase (its declaration or a reference).
    Phase(String),
    /// A terminal (`$end`, ...).
    Terminal(String),
    /// An outcome of a phase (its declaration or an `on`).
    Outcome {
        /// The phase.
        phase: String,
        /// The outcome id.
        id: String,
    },
}

impl Index {
    /// Index a document whose phases are listed ([`crate::pipeline::PhaseLayout::Lists`]),
    /// or listed under the IR's `graph`, `ir_graph` ([`crate::pipeline::PhaseLayout::IrGraph`]).
    pub fn build(doc: &Document, ir_graph: Option<&Node>) -> Index {
        let mut index = Index::default();
        index.visit(doc.root(), ir_graph);
        index
    }

    /// The first declaration of a phase.
    pub fn phase(&self, id: &str) -> Option<&PhaseDecl> {
        self.phases.iter().find(|p| p.id == id)
    }

    /// The first declaration of each phase id, in source order (a set of the ids seen, so
    /// a loop of 10,000 phases costs 10,000 lookups, not 50 million comparisons).
    pub fn first_declarations(&self) -> Vec<&PhaseDecl> {
        let mut seen = foldhash::HashSet::default();
        self.phases
            .iter()
            .filter(|p| seen.insert(p.id.as_str()))
            .collect()
    }

    /// The outcome ids of a phase (`complete` when it declares none).
    pub fn outcome_ids(&self, phase: &str) -> Vec<&str> {
        match self.phase(phase) {
            Some(p) if !p.outcomes.is_empty() => p.outcomes.iter().map(|o| o.id.as_str()).collect(),
            _ => vec!["complete"],
        }
    }

    /// The symbol at byte `offset`, and the range of the id there.
    pub fn symbol_at(&self, offset: usize) -> Option<(Symbol, ByteRange)> {
        let inside = |s: ByteRange| s.0 <= offset && offset <= s.1;
        for p in &self.phases {
            if inside(p.id_span) {
                return Some((Symbol::Phase(p.id.to_string()), p.id_span));
            }
            if let Some(o) = p.outcomes.iter().find(|o| inside(o.id_span)) {
                let sym = Symbol::Outcome {
                    phase: p.id.to_string(),
                    id: o.id.to_string(),
                };
                return Some((sym, o.id_span));
            }
        }
        let r = self.refs.iter().find(|r| inside(r.span))?;
        let sym = match (r.kind, &r.phase) {
            (RefKind::On, Some(phase)) => Symbol::Outcome {
                phase: phase.to_string(),
                id: r.id.to_string(),
            },
            (RefKind::On, None) => return None,
            _ if r.id.starts_with('$') && r.kind.allows_terminal() => {
                Symbol::Terminal(r.id.to_string())
            }
            _ => Symbol::Phase(r.id.to_string()),
        };
        Some((sym, r.span))
    }

    /// Where a phase or outcome is declared (first declaration).
    pub fn declaration(&self, sym: &Symbol) -> Option<ByteRange> {
        match sym {
            Symbol::Phase(id) => self.phase(id).map(|p| p.id_span),
            Symbol::Outcome { phase, id } => {
                let p = self.phase(phase)?;
                Some(match p.outcomes.iter().find(|o| &o.id == id) {
                    Some(o) => o.id_span,
                    // The implicit `complete`: the phase itself.
                    None => p.id_span,
                })
            }
            Symbol::Terminal(_) => None,
        }
    }

    /// Every place a phase id is written: declarations and references.
    pub fn phase_occurrences(&self, id: &str) -> Vec<ByteRange> {
        let decls = self.phases.iter().filter(|p| p.id == id).map(|p| p.id_span);
        let refs = self
            .refs
            .iter()
            .filter(|r| r.kind != RefKind::On && r.id == id)
            .map(|r| r.span);
        let mut all: Vec<ByteRange> = decls.chain(refs).collect();
        all.sort_unstable();
        all.dedup();
        all
    }

    /// The transitions leaving a phase.
    pub fn transitions_from<'a>(
        &'a self,
        phase: &'a str,
    ) -> impl Iterator<Item = &'a TransitionDecl> {
        self.transitions
            .iter()
            .filter(move |t| t.from.as_deref() == Some(phase))
    }

    /// Index `node` and what it holds; `ir_graph` is the `graph` of an IR document, whose
    /// `entry` (and no other) names the entry phase.
    fn visit(&mut self, node: &Node, ir_graph: Option<&Node>) {
        match &node.value {
            Value::Object(members) => {
                let is_ir_graph = ir_graph.is_some_and(|g| std::ptr::eq(g, node));
                self.object(node, members, is_ir_graph);
                for m in members {
                    self.visit(&m.value, ir_graph);
                }
            }
            Value::Array(items) => items.iter().for_each(|n| self.visit(n, ir_graph)),
            _ => {}
        }
    }

    /// The declarations and references of one object; `is_ir_graph` when it is the `graph`
    /// of an IR document, whose `entry` is a reference like AgentPM's `entry_phase` (a
    /// rename changes it; hover, definition and references find the phase there).
    fn object(&mut self, node: &Node, members: &[Member], is_ir_graph: bool) {
        for m in members {
            match (m.key.as_str(), &m.value.value) {
                ("entry_phase", _) => self.reference(RefKind::Entry, &m.value, None),
                ("entry", _) if is_ir_graph => self.reference(RefKind::Entry, &m.value, None),
                ("phases", Value::Array(items)) => {
                    self.phases.reserve(items.len());
                    self.phases.extend(items.iter().filter_map(phase_decl));
                }
                ("transitions", Value::Array(items)) => {
                    self.transitions_span = Some(m.value.span.into());
                    // Room for what they declare and refer to at once: grown one push at
                    // a time, the lists were copied a dozen times into fresh pages.
                    self.transitions.reserve(items.len());
                    self.refs.reserve(items.len().saturating_mul(3));
                }
                _ => {}
            }
        }
        if node.get("on").is_some() && (node.get("from").is_some() || node.get("to").is_some()) {
            self.transition(node);
        }
        if node.get("before_phase").is_some() || node.get("on_reject").is_some() {
            self.checkpoint(node);
        }
    }

    fn transition(&mut self, node: &Node) {
        let from = id_at(node, "from");
        if let Some(n) = node.get("from") {
            self.reference(RefKind::From, n, None);
        }
        if let Some(n) = node.get("on") {
            self.reference(RefKind::On, n, from.clone());
        }
        if let Some(n) = node.get("to") {
            self.reference(RefKind::To, n, None);
        }
        self.transitions.push(TransitionDecl {
            from,
            on: id_at(node, "on"),
            to: id_at(node, "to"),
            span: node.span.into(),
        });
    }

    fn checkpoint(&mut self, node: &Node) {
        if let Some(n) = node.get("before_phase") {
            self.reference(RefKind::BeforePhase, n, None);
        }
        if let Some(n) = node.get("on_reject") {
            self.reference(RefKind::OnReject, n, None);
        }
        let id = node.get("id");
        self.checkpoints.push(CheckpointDecl {
            id: id.and_then(str_of).unwrap_or_else(|| as_id("")),
            id_span: id.map_or(node.span, |n| n.span).into(),
            span: node.span.into(),
        });
    }

    /// A reference of `kind` at `node`, when it is a string (`phase`: an `on`'s `from`).
    pub(super) fn reference(&mut self, kind: RefKind, node: &Node, phase: Option<Str>) {
        if let Some(id) = str_of(node) {
            self.refs.push(Reference {
                kind,
                id,
                span: node.span.into(),
                phase,
            });
        }
    }
}

/// The string at `key` of an object node, owned (`None` when absent or not a string).
pub(super) fn text_at(node: &Node, key: &str) -> Option<String> {
    node.get(key).and_then(Node::as_str).map(str::to_owned)
}

/// The id at `key` of an object node ([`str_of`]).
pub(super) fn id_at(node: &Node, key: &str) -> Option<Str> {
    node.get(key).and_then(str_of)
}

/// A text as an id of the index: held in place up to 21 bytes, as the tree holds it, so
/// that the ids and references of a 10,000-phase loop (about 250,000 of them) cost no
/// allocation, where each was a `String` on the heap. A copy, never the tree's own
/// string: that may be a range of the source text, which the index would keep alive and
/// the next edit would then have to copy.
pub(super) fn as_id(text: &str) -> Str {
    Str::new(text, false)
}

/// The string of a node as an id ([`as_id`]).
pub(super) fn str_of(node: &Node) -> Option<Str> {
    node.as_str().map(as_id)
}

fn phase_decl(node: &Node) -> Option<PhaseDecl> {
    let id = node.get("id")?;
    let outcomes = match node.get("outcomes").map(|n| &n.value) {
        Some(Value::Array(items)) => items.iter().filter_map(outcome_decl).collect(),
        _ => Vec::new(),
    };
    Some(PhaseDecl {
        id: str_of(id)?,
        id_span: id.span.into(),
        span: node.span.into(),
        objective: text_at(node, "objective"),
        access: node.get("access").map(|a| a.span.into()),
        outcomes,
    })
}

fn outcome_decl(node: &Node) -> Option<OutcomeDecl> {
    let id = node.get("id")?;
    Some(OutcomeDecl {
        id: str_of(id)?,
        id_span: id.span.into(),
        span: node.span.into(),
        description: text_at(node, "description"),
    })
}

#[cfg(test)]
mod tests {
    use super::{Index, Symbol};
    use crate::diag::Diagnostics;
    use crate::tree::{ReadLimits, parse_yaml};

    #[test]
    fn yaml_references_resolve() {
        let text = "loop:\n  entry_phase: plan\n  phases:\n    - id: plan\n      objective: Plan.\n      outcomes:\n        - {id: ok, description: Done.}\n  transitions:\n    - {from: plan, on: ok, to: $end}\n";
        let doc = parse_yaml(
            text.to_owned(),
            &crate::front::vocabulary::KEYS,
            &ReadLimits::default(),
            &mut Diagnostics::new("x"),
        )
        .expect("YAML");
        let index = Index::build(&doc, None);
        let decl = text.find("id: plan").unwrap() + 4;
        let entry = text.find("entry_phase: plan").unwrap() + 13;
        let (sym, _) = index.symbol_at(entry).unwrap();
        assert_eq!(sym, Symbol::Phase("plan".into()));
        assert_eq!(index.declaration(&sym).map(|s| s.0), Some(decl));
        let on = text.find("on: ok").unwrap() + 4;
        let (sym, _) = index.symbol_at(on).unwrap();
        let outcome = text.find("id: ok").unwrap() + 4;
        assert_eq!(index.declaration(&sym).map(|s| s.0), Some(outcome));
        assert_eq!(index.phase_occurrences("plan").len(), 3);
        let to = text.find("$end").unwrap();
        assert_eq!(
            index.symbol_at(to).unwrap().0,
            Symbol::Terminal("$end".into())
        );
    }
}
