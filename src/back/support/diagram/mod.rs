//! Shared text helpers for the diagram back ends (Mermaid, DOT, PlantUML), and the drawing
//! they share.
//!
//! * free-text clean-up (`layout.rs`): [`clean`] ([`crate::text::clean`]), [`shorten`] and [`wrap`] work
//!   on Unicode scalar values, never split a character, drop the characters that
//!   [`crate::text::is_dropped`] selects and fold every run of whitespace (newlines
//!   included) into one space. Each borrows its input when it has nothing to change (most
//!   labels), so a drawing copies almost no text;
//! * the words a drawing says of its loop (`labels.rs`): [`access_summary`], the compact
//!   access-intent line (`tools · knowledge · mem r/w`), a MAS phase's role, the escalation
//!   note and the subtitle;
//! * [`Drawing`]: the format-neutral drawing that `mermaid`, `dot` and `plantuml` write,
//!   made from the IR and [`Info`] (never recomputing graph facts): its heading and lookup
//!   tables, from which each node and edge is made as a back end writes it (never all held;
//!   [`Diagram`] holds them all, for the diagram model), borrowing its text from the IR.
//!   Node ids are typed ([`NodeId`]) and written from positions (`p0`, `g0`, `t_end`), never
//!   from user text, so they are always valid identifiers in every target and stable for
//!   the same input.
//!
//! The strings of a drawing's nodes and edges are plain text (cleaned, not escaped): each
//! back end escapes them for its own target. A large loop's drawing is made and written in
//! parallel chunks ([`super::chunks`]), in the same order as on one thread.

use std::borrow::Cow;
use std::fmt;

mod labels;
mod layout;

pub use labels::access_summary;
use labels::{escalation_note, is_mas, role_of, subtitle};
pub use layout::{ELLIPSIS, Text, shorten, wrap};
use layout::{shorten_clean, wrap_part};

use super::chunks;
use crate::ir::{Destination, IdMap, Spec, Terminal};
/// Re-exported: the drawings clean their text with it.
pub use crate::text::clean;
use crate::valid::Info;
use crate::valid::graph::{Edge, Vertex};

/// The id of a diagram node: generated from its position, never from user text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeId {
    /// The start marker (`start`).
    Start,
    /// The phase at this index of the IR's phases (`p<i>`).
    Phase(usize),
    /// The checkpoint at this index of the IR's checkpoints (`g<i>`).
    Gate(usize),
    /// A terminal (`t_end`, `t_abort`, `t_handoff`).
    Terminal(Terminal),
}

impl NodeId {
    /// The id of the drawn node for a vertex of the analysed graph.
    pub fn of(vertex: &Vertex) -> NodeId {
        match vertex {
            Vertex::Phase(i) => NodeId::Phase(*i),
            Vertex::Gate(i) => NodeId::Gate(*i),
            Vertex::Terminal(t) => NodeId::Terminal(*t),
        }
    }

    /// Append the id to `out` (what [`Display`](fmt::Display) writes, without the
    /// formatting machinery: a large drawing writes tens of thousands of ids).
    pub fn push_to(self, out: &mut String) {
        let (prefix, n) = match self {
            NodeId::Start => return out.push_str(START_ID),
            NodeId::Terminal(t) => return out.push_str(terminal_id(t)),
            NodeId::Phase(i) => ('p', i),
            NodeId::Gate(i) => ('g', i),
        };
        out.push(prefix);
        crate::text::push_decimal(out, n);
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(8);
        self.push_to(&mut s);
        f.write_str(&s)
    }
}

impl serde::Serialize for NodeId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The id of a terminal node (`t_end`, `t_abort`, `t_handoff`).
pub fn terminal_id(t: Terminal) -> &'static str {
    match t {
        Terminal::End => "t_end",
        Terminal::Abort => "t_abort",
        Terminal::Handoff => "t_handoff",
    }
}

/// The id of the start marker.
pub const START_ID: &str = "start";

/// Characters per line of a node's objective.
pub const LINE_WIDTH: usize = 34;
/// Lines of objective shown on a node.
pub const OBJECTIVE_LINES: usize = 2;
/// Longest agent name shown in a role line.
pub const ROLE_CHARS: usize = 40;
/// Longest binding shown on a phase of an Agent's loop.
pub const BINDING_CHARS: usize = 60;
/// Longest full text kept for tooltips.
pub const TOOLTIP_CHARS: usize = 600;

/// What a diagram node stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    /// A phase.
    Phase,
    /// An approval checkpoint, drawn on the way into its phase.
    Gate,
    /// A terminal.
    Terminal(Terminal),
}

/// One node of a [`Diagram`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DiagramNode<'a> {
    /// Generated, safe, stable id.
    pub id: NodeId,
    /// What it is.
    pub kind: NodeKind,
    /// Heading: the phase id, `approval` for a gate, or the terminal (`$end`).
    pub title: Text<'a>,
    /// Body lines: the wrapped objective of a phase, the checkpoint id of a gate, the
    /// meaning of a terminal.
    pub lines: Vec<Text<'a>>,
    /// Access-intent line of a phase.
    pub access: Option<String>,
    /// MAS role shown on the phase (`validator: qa`, `actor: code-fixer`).
    pub role: Option<String>,
    /// What an AgentPM Agent binds to the phase (`bound: memory @acme/notes-memory`),
    /// when the loop is drawn for an Agent ([`Drawing::for_agent`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binding: Option<String>,
    /// Full text for tooltips (cleaned, bounded; empty when [`Tooltips::Omitted`]).
    pub tooltip: Text<'a>,
    /// The entry phase.
    pub entry: bool,
    /// Reachable from the entry.
    pub reachable: bool,
    /// A reachable phase from which no terminal can be reached.
    pub trap: bool,
}

impl DiagramNode<'_> {
    /// The extra lines of a phase: its access intent, its role, then its binding.
    pub fn extras(&self) -> impl Iterator<Item = &str> {
        [&self.access, &self.role, &self.binding]
            .into_iter()
            .flatten()
            .map(String::as_str)
    }

    /// About how many bytes of text the node holds (to size a drawing's output).
    pub fn text_len(&self) -> usize {
        self.title.len()
            + self.lines.iter().map(|l| l.len()).sum::<usize>()
            + self.extras().map(str::len).sum::<usize>()
            + self.tooltip.len()
    }
}

/// What a diagram edge stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    /// From the start marker to the entry (or its first gate).
    Start,
    /// A transition, labelled with its outcome.
    Transition,
    /// Approval at a gate.
    Approve,
    /// Rejection at a gate (`on_reject`).
    Reject,
}

/// One edge of a [`Diagram`].
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DiagramEdge<'a> {
    /// Source node id.
    pub from: NodeId,
    /// Target node id.
    pub to: NodeId,
    /// What it is.
    pub kind: EdgeKind,
    /// The outcome id, `approve` or `reject`; empty for the start edge.
    pub label: Text<'a>,
    /// A second label line (`escalation: human` on a MAS escalate edge).
    pub note: Option<String>,
    /// Full text for tooltips (the outcome description; `None` when
    /// [`Tooltips::Omitted`]).
    pub tooltip: Option<Text<'a>>,
    /// On the shortest successful run ([`Info::shortest_success`]).
    pub success_path: bool,
}

impl DiagramEdge<'_> {
    /// About how many bytes of text the edge holds (to size a drawing's output).
    pub fn text_len(&self) -> usize {
        self.label.len()
            + self.note.as_ref().map_or(0, String::len)
            + self.tooltip.as_ref().map_or(0, |t| t.len())
    }
}

/// A loop as a drawing: nodes in a stable order (each phase preceded by its gates, then
/// the terminals used), edges in the order of the analysed graph. Its text is borrowed
/// from the [`Spec`] it was built from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagram<'a> {
    /// The loop name.
    pub title: Text<'a>,
    /// What kind of loop, its roles and bounds (`VEAL loop · max 3 attempts`).
    pub subtitle: Option<String>,
    /// The loop description (cleaned, bounded), for accessibility text and tooltips.
    pub description: Option<Text<'a>>,
    /// Id of the node a run starts on, when the entry exists.
    pub start: Option<NodeId>,
    /// Nodes.
    pub nodes: Vec<DiagramNode<'a>>,
    /// Edges.
    pub edges: Vec<DiagramEdge<'a>>,
}

/// Whether a [`Diagram`] carries the tooltips of its nodes and edges (the full texts an
/// SVG shows on hover). Cleaning and shortening them was most of the text work of drawing
/// a loop with long texts, wasted on the back ends that draw none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tooltips {
    /// Built (DOT, the diagram model).
    Built,
    /// Left empty (Mermaid, PlantUML).
    Omitted,
}

impl<'a> Diagram<'a> {
    /// Build the drawing of a loop from its IR and analysis, every node and edge held
    /// (the diagram model; the back ends write a [`Drawing`] instead).
    pub fn new(spec: &'a Spec, info: &'a Info, tooltips: Tooltips) -> Diagram<'a> {
        Drawing::new(spec, info, tooltips).into_diagram()
    }

    /// The node with this id.
    pub fn node(&self, id: NodeId) -> Option<&DiagramNode<'a>> {
        self.nodes.iter().find(|n| n.id == id)
    }
}

/// What a node's styles are made from: what it is and where it stands in the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeMark {
    /// Its id.
    pub id: NodeId,
    /// What it is.
    pub kind: NodeKind,
    /// The entry phase.
    pub entry: bool,
    /// Reachable from the entry.
    pub reachable: bool,
    /// A reachable phase from which no terminal can be reached.
    pub trap: bool,
    /// A phase an AgentPM Agent binds packages to ([`Drawing::for_agent`]).
    pub bound: bool,
}

/// A loop ready to draw: its heading, and the tables its nodes and edges are made from.
/// The nodes and edges are made one at a time as a back end writes them ([`Self::write_nodes`],
/// [`Self::for_each_node`], ...), never all held: held, those of a 10,000-phase loop with
/// one-word texts were 4 to 6 MB, more than its IR, and the largest part of the peak memory
/// of drawing it.
pub struct Drawing<'a> {
    /// The loop name.
    pub title: Text<'a>,
    /// What kind of loop, its roles and bounds (`VEAL loop · max 3 attempts`).
    pub subtitle: Option<String>,
    /// The loop description (cleaned, bounded), for accessibility text and tooltips.
    pub description: Option<Text<'a>>,
    /// Id of the node a run starts on, when the entry exists.
    pub start: Option<NodeId>,
    tables: DrawingTables<'a>,
    /// About how many bytes of text a node item and an edge item hold (to size output).
    text_per_item: (usize, usize),
}

impl<'a> Drawing<'a> {
    /// The drawing of a loop from its IR and analysis.
    pub fn new(spec: &'a Spec, info: &'a Info, tooltips: Tooltips) -> Drawing<'a> {
        let tables = DrawingTables::new(spec, info, tooltips);
        let start = info
            .start
            .and_then(|s| info.graph.node_weight(s))
            .map(NodeId::of)
            .filter(|id| tables.drawn.contains(*id));
        Drawing {
            title: shorten(&spec.name, 80),
            subtitle: subtitle(spec),
            description: spec
                .description
                .as_deref()
                .map(|d| shorten(d, TOOLTIP_CHARS))
                .filter(|d| !d.is_empty()),
            start,
            text_per_item: text_per_item(spec, tooltips),
            tables,
        }
    }

    /// The drawing as `agent` runs the loop (none: unchanged): titled with the Agent's
    /// name, the loop's reference and kind below it, and each bound phase marked with
    /// what is bound to it. A bound phase the loop lacks, or one declared twice past its
    /// first declaration, marks nothing.
    pub fn for_agent(mut self, agent: Option<&'a crate::back::AgentView>) -> Drawing<'a> {
        let Some(agent) = agent else {
            return self;
        };
        self.title = shorten(&agent.name, 80);
        let reference = format!("loop {}", shorten(&agent.reference, 80));
        self.subtitle = Some(match self.subtitle.take() {
            Some(s) => format!("{reference} · {s}"),
            None => reference,
        });
        let t = &mut self.tables;
        t.bound = vec![None; t.spec.graph.phases.len()];
        for (id, what) in &agent.bound {
            if let Some(slot) =
                (t.info.phase_index(&t.spec.graph, id)).and_then(|i| t.bound.get_mut(i))
            {
                slot.get_or_insert(what.as_str());
            }
        }
        self
    }

    /// Node items: each phase (with its gates, drawn before it), then each terminal used.
    fn node_item_count(&self) -> usize {
        self.tables.spec.graph.phases.len() + self.tables.drawn.terminals.len()
    }

    /// Edge items: the start edge, then each edge of the analysed graph.
    fn edge_item_count(&self) -> usize {
        self.tables.info.graph.raw_edges().len() + 1
    }

    /// About how many bytes the drawing takes when a back end writes `node_syntax` bytes
    /// around each node's text and `edge_syntax` around each edge's, to size the output
    /// once instead of growing it by doubling (which copied a large drawing several
    /// times). Generous: capacity that is never written is never touched.
    fn text_size_hint(&self, node_syntax: usize, edge_syntax: usize) -> usize {
        let (node_text, edge_text) = self.text_per_item;
        let nodes = self.nodes_at_most();
        let node_bytes = nodes.saturating_mul(2 * node_text + node_syntax);
        let edge_bytes = (self.edge_item_count()).saturating_mul(2 * edge_text + edge_syntax);
        node_bytes.saturating_add(edge_bytes).saturating_add(4096)
    }

    /// The text `write` writes of this drawing, held whole and sized once (from the
    /// drawing's text and the bytes the back end writes around a node's and an edge's).
    pub fn text(
        &self,
        node_syntax: usize,
        edge_syntax: usize,
        write: impl FnOnce(&Self, &mut chunks::Output),
    ) -> String {
        let mut out = chunks::Output::held(self.text_size_hint(node_syntax, edge_syntax));
        write(self, &mut out);
        out.into_text()
    }

    /// The text `write` writes of this drawing, handed to `sink` as it is written (never
    /// held whole): the sink's first error, if any.
    pub fn stream(
        &self,
        sink: &mut dyn std::io::Write,
        write: impl FnOnce(&Self, &mut chunks::Output),
    ) -> std::io::Result<()> {
        let mut out = chunks::Output::streamed(sink);
        write(self, &mut out);
        out.finish()
    }

    /// Every node in order, made one at a time.
    pub fn for_each_node(&self, mut each: impl FnMut(&DiagramNode<'a>)) {
        (0..self.node_item_count()).for_each(|i| self.nodes_of(i, &mut each));
    }

    /// Every edge in order, made one at a time.
    pub fn for_each_edge(&self, mut each: impl FnMut(&DiagramEdge<'a>)) {
        (0..self.edge_item_count()).for_each(|i| self.edge_of(i).iter().for_each(&mut each));
    }

    /// `write(node, out)` for every node in order, in parallel chunks for a large loop
    /// (`syntax`: about how many bytes `write` adds around a node's text).
    pub fn write_nodes(
        &self,
        out: &mut chunks::Output,
        syntax: usize,
        write: impl Fn(&DiagramNode<'a>, &mut String) + Sync,
    ) {
        let size = 2 * self.text_per_item.0 + syntax;
        chunks::write_items(self.node_item_count(), out, size, |i, out| {
            self.nodes_of(i, &mut |n: &DiagramNode<'a>| write(n, out));
        });
    }

    /// `write(edge, out)` for every edge in order, as [`Self::write_nodes`].
    pub fn write_edges(
        &self,
        out: &mut chunks::Output,
        syntax: usize,
        write: impl Fn(&DiagramEdge<'a>, &mut String) + Sync,
    ) {
        let size = 2 * self.text_per_item.1 + syntax;
        chunks::write_items(self.edge_item_count(), out, size, |i, out| {
            if let Some(e) = self.edge_of(i) {
                write(&e, out);
            }
        });
    }

    /// At most how many nodes the drawing has (each phase and gate, the terminals).
    pub fn nodes_at_most(&self) -> usize {
        self.node_item_count() + self.tables.checkpoints.len()
    }

    /// The mark of every node, in order (no text is made).
    pub fn for_each_mark(&self, mut each: impl FnMut(NodeMark)) {
        (0..self.node_item_count()).for_each(|i| self.marks_of(i, &mut each));
    }

    /// The gates, for the labels of their edges in a state diagram.
    pub fn gates(&self) -> Gates<'a> {
        let t = &self.tables;
        Gates(
            (t.checkpoints.iter().enumerate())
                .filter(|(k, _)| t.drawn.gates[*k])
                .map(|(k, c)| (NodeId::Gate(k), gate_line(c)))
                .collect(),
        )
    }

    /// The drawing with every node and edge held.
    pub fn into_diagram(self) -> Diagram<'a> {
        let items = self.node_item_count();
        let nodes = chunks::collect(items, self.nodes_at_most(), |i, out| {
            self.nodes_of(i, &mut |n: &DiagramNode<'a>| out.push(n.clone()));
        });
        let items = self.edge_item_count();
        let edges = chunks::collect(items, items, |i, out| out.extend(self.edge_of(i)));
        Diagram {
            title: self.title,
            subtitle: self.subtitle,
            description: self.description,
            start: self.start,
            nodes,
            edges,
        }
    }

    /// The marks of the nodes of node item `i` (see [`Self::node_item_count`]).
    fn marks_of(&self, i: usize, mut each: impl FnMut(NodeMark)) {
        let t = &self.tables;
        let phases = &t.spec.graph.phases;
        let Some(p) = phases.get(i) else {
            if let Some(&term) = t.drawn.terminals.get(i - phases.len()) {
                each(t.terminal_mark(term));
            }
            return;
        };
        if !t.drawn.phases[i] {
            return;
        }
        // Every way into a phase passes its gates, so they share reachability.
        let facts = t.facts[i];
        let gates = t.gates_of.get(&i).map_or(&[][..], Vec::as_slice);
        for &k in gates {
            each(NodeMark {
                id: NodeId::Gate(k),
                kind: NodeKind::Gate,
                entry: false,
                reachable: facts.reachable,
                trap: false,
                bound: false,
            });
        }
        each(NodeMark {
            id: NodeId::Phase(i),
            kind: NodeKind::Phase,
            entry: p.id == t.spec.graph.entry,
            reachable: facts.reachable,
            trap: facts.trap,
            bound: t.bound_to(i).is_some(),
        });
    }

    /// The nodes of node item `i`, made one at a time.
    fn nodes_of(&self, i: usize, each: &mut impl FnMut(&DiagramNode<'a>)) {
        self.marks_of(i, |m| each(&self.tables.node(m)));
    }

    /// The edge of edge item `i` (see [`Self::edge_item_count`]), unless it is not drawn.
    fn edge_of(&self, i: usize) -> Option<DiagramEdge<'a>> {
        let t = &self.tables;
        let graph = &t.info.graph;
        let Some(e) = i.checked_sub(1).and_then(|i| graph.raw_edges().get(i)) else {
            return self.start.map(|s| t.start_edge(s));
        };
        let (na, nb) = (
            graph.node_weight(e.source())?,
            graph.node_weight(e.target())?,
        );
        let (from, to) = (NodeId::of(na), NodeId::of(nb));
        if !t.drawn.contains(from) || !t.drawn.contains(to) {
            return None;
        }
        match &e.weight {
            Edge::Transition(i) => {
                // The edge leaves the node of the first declaration of its `from`.
                let phase = match na {
                    Vertex::Phase(p) => Some(*p),
                    _ => None,
                };
                (t.spec.graph.transitions.get(*i)).map(|tr| t.transition_edge(tr, phase, from, to))
            }
            Edge::Approve => Some(t.approve_edge(nb, from, to)),
            Edge::Reject => Some(gate_edge(EdgeKind::Reject, "reject", from, to, false)),
        }
    }
}

/// About how many bytes of text a node item and an edge item of a drawing hold: the
/// phases' ids and objectives, and the transitions' outcomes with their descriptions when
/// tooltips are built, as far as a drawing shows them.
fn text_per_item(spec: &Spec, tooltips: Tooltips) -> (usize, usize) {
    let shown = match tooltips {
        Tooltips::Built => TOOLTIP_CHARS + LINE_WIDTH * OBJECTIVE_LINES,
        Tooltips::Omitted => LINE_WIDTH * OBJECTIVE_LINES,
    };
    let phases = &spec.graph.phases;
    // A title shows at most 64 characters of an id.
    let node_text: usize = (phases.iter())
        .map(|p| p.id.len().min(4 * 64) + p.objective.len().min(4 * shown))
        .sum();
    let descriptions: usize = match tooltips {
        Tooltips::Built => (phases.iter().flat_map(|p| p.outcomes.iter().flatten()))
            .map(|o| o.description.len().min(TOOLTIP_CHARS))
            .sum(),
        Tooltips::Omitted => 0,
    };
    let transitions = &spec.graph.transitions;
    let edge_text = descriptions + transitions.iter().map(|t| t.on.len()).sum::<usize>();
    (
        node_text / phases.len().max(1),
        edge_text / transitions.len().max(1),
    )
}

/// The line of a gate: its checkpoint id.
fn gate_line(c: &crate::ir::Checkpoint) -> Text<'_> {
    shorten(&c.id, 64)
}

/// The gates of a drawing by id, with their lines.
pub struct Gates<'a>(IdMap<NodeId, Text<'a>>);

impl Gates<'_> {
    /// The ids of the gates.
    pub fn ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.0.keys().copied()
    }

    /// The label of an edge out of a gate in a state diagram, where the gate is a choice
    /// state, which has no label of its own: the edge carries the checkpoint id
    /// (`approve · review`). `None` for any other edge.
    pub fn edge_label(&self, e: &DiagramEdge) -> Option<String> {
        match (e.kind, self.0.get(&e.from)) {
            (EdgeKind::Approve | EdgeKind::Reject, Some(line)) => {
                Some(format!("{} · {}", e.label, line))
            }
            _ => None,
        }
    }
}

/// Which nodes of the analysed graph are drawn (phases: the first declaration of each id;
/// gates: checkpoints whose phase is drawn; terminals: the ones used).
struct Drawn<'a> {
    phases: Vec<bool>,
    gates: Vec<bool>,
    terminals: &'a [Terminal],
}

impl Drawn<'_> {
    fn contains(&self, id: NodeId) -> bool {
        match id {
            NodeId::Start => true,
            NodeId::Phase(i) => self.phases.get(i).copied().unwrap_or(false),
            NodeId::Gate(k) => self.gates.get(k).copied().unwrap_or(false),
            NodeId::Terminal(t) => self.terminals.contains(&t),
        }
    }
}

/// What drawing needs to look up, indexed by phase so that drawing stays linear in the
/// size of the loop. A phase id is found through the analysis's own index of the drawn
/// phases ([`Info::phase_index`]): tables of their own, by id, were 1.7 MB of drawing the
/// 10,000-phase `short` loop.
struct DrawingTables<'a> {
    spec: &'a Spec,
    info: &'a Info,
    checkpoints: &'a [crate::ir::Checkpoint],
    /// The shortest successful run.
    path: &'a [usize],
    /// What the analysis says of each phase (of the drawn ones: first declarations).
    facts: Vec<PhaseFacts>,
    /// The drawn gates of each phase, by its index, in checkpoint order.
    gates_of: IdMap<usize, Vec<usize>>,
    drawn: Drawn<'a>,
    tooltips: Tooltips,
    /// What an Agent binds to each phase, by its index (empty: drawn for no Agent).
    bound: Vec<Option<&'a str>>,
    /// Where each phase's outcomes are, by id (a transition's tooltip is its outcome's
    /// description: scanning the outcomes for each was quadratic in a phase of many).
    outcomes: crate::valid::outcomes::OutcomeIndex<'a>,
}

/// What the analysis says of a phase.
#[derive(Debug, Clone, Copy, Default)]
struct PhaseFacts {
    reachable: bool,
    trap: bool,
    /// Its first position on the shortest successful run, if it is on it.
    path_pos: Option<u32>,
}

/// [`PhaseFacts`] of every phase.
fn phase_facts(spec: &Spec, info: &Info, path: &[usize]) -> Vec<PhaseFacts> {
    let mut facts = vec![PhaseFacts::default(); spec.graph.phases.len()];
    let mut fact = |i: usize, set: &mut dyn FnMut(&mut PhaseFacts)| {
        if let Some(f) = facts.get_mut(i) {
            set(f);
        }
    };
    info.reachable_phases
        .iter()
        .for_each(|&i| fact(i, &mut |f| f.reachable = true));
    info.trap_phases
        .iter()
        .for_each(|&i| fact(i, &mut |f| f.trap = true));
    for (k, &i) in path.iter().enumerate() {
        let k = u32::try_from(k).unwrap_or(u32::MAX);
        fact(i, &mut |f| {
            f.path_pos.get_or_insert(k);
        });
    }
    facts
}

impl<'a> DrawingTables<'a> {
    fn new(spec: &'a Spec, info: &'a Info, tooltips: Tooltips) -> Self {
        let path: &[usize] = info.shortest_success.as_deref().unwrap_or(&[]);
        let checkpoints = spec.graph.checkpoints.as_deref().unwrap_or(&[]);
        let (drawn, gates_of) = drawn_nodes(spec, info, checkpoints);
        DrawingTables {
            spec,
            info,
            checkpoints,
            path,
            facts: phase_facts(spec, info, path),
            gates_of,
            drawn,
            tooltips,
            bound: Vec::new(),
            outcomes: crate::valid::outcomes::OutcomeIndex::new(&spec.graph),
        }
    }

    /// What an Agent binds to phase `i`, if the drawing is an Agent's and it binds any.
    fn bound_to(&self, i: usize) -> Option<&'a str> {
        self.bound.get(i).copied().flatten()
    }

    /// What the analysis says of the drawn phase with this id.
    fn facts_of(&self, id: &str) -> Option<PhaseFacts> {
        (self.info.phase_index(&self.spec.graph, id)).and_then(|i| self.facts.get(i).copied())
    }

    /// The node of a mark.
    fn node(&self, m: NodeMark) -> DiagramNode<'a> {
        match m.id {
            NodeId::Gate(k) => self.gate_node(k, m),
            NodeId::Phase(i) => self.phase_node(i, m),
            NodeId::Terminal(t) => self.terminal_node(t, m),
            NodeId::Start => empty_node(m),
        }
    }

    fn gate_node(&self, k: usize, m: NodeMark) -> DiagramNode<'a> {
        let c = &self.checkpoints[k];
        let tooltip = match self.tooltips {
            Tooltips::Built => {
                let text = format!(
                    "approval checkpoint {} before {}; rejection goes to {}",
                    c.id,
                    c.before_phase,
                    c.on_reject.as_str()
                );
                Cow::Owned(shorten(&text, TOOLTIP_CHARS).into_owned())
            }
            Tooltips::Omitted => Cow::Borrowed(""),
        };
        marked(
            m,
            Cow::Borrowed("approval"),
            vec![gate_line(c)],
            (None, None),
            tooltip,
        )
    }

    fn phase_node(&self, i: usize, m: NodeMark) -> DiagramNode<'a> {
        let p = &self.spec.graph.phases[i];
        // Cleaned once for both the lines and the tooltip, as far as they show it.
        let shown = match self.tooltips {
            Tooltips::Built => TOOLTIP_CHARS + 1,
            // The lines, the word that overflows them and the next: a word wider than
            // a line or zero-width characters fall back to the whole text.
            Tooltips::Omitted => (LINE_WIDTH + 1) * (OBJECTIVE_LINES + 2),
        };
        let (objective, whole) = crate::text::clean_upto(&p.objective, shown);
        let lines = wrap_part(&objective, whole, LINE_WIDTH, OBJECTIVE_LINES)
            .unwrap_or_else(|| wrap(&p.objective, LINE_WIDTH, OBJECTIVE_LINES));
        let tooltip = match self.tooltips {
            Tooltips::Built => shorten_clean(objective, TOOLTIP_CHARS),
            Tooltips::Omitted => Cow::Borrowed(""),
        };
        let extras = (access_summary(p.access.as_ref()), role_of(self.spec, &p.id));
        let mut node = marked(m, shorten(&p.id, 64), lines, extras, tooltip);
        node.binding = (self.bound_to(i)).map(|b| format!("bound: {}", shorten(b, BINDING_CHARS)));
        node
    }

    fn terminal_mark(&self, t: Terminal) -> NodeMark {
        NodeMark {
            id: NodeId::Terminal(t),
            kind: NodeKind::Terminal(t),
            entry: false,
            reachable: self.info.reachable_terminals.contains(&t),
            trap: false,
            bound: false,
        }
    }

    fn terminal_node(&self, t: Terminal, m: NodeMark) -> DiagramNode<'a> {
        let tooltip = Cow::Owned(format!("{}: {}", t.as_str(), t.meaning()));
        let lines = vec![Cow::Borrowed(t.meaning())];
        marked(m, Cow::Borrowed(t.as_str()), lines, (None, None), tooltip)
    }

    fn start_edge(&self, to: NodeId) -> DiagramEdge<'a> {
        DiagramEdge {
            from: NodeId::Start,
            to,
            kind: EdgeKind::Start,
            label: Cow::Borrowed(""),
            note: None,
            tooltip: Some(Cow::Owned(format!(
                "entry: {}",
                shorten(&self.spec.graph.entry, 64)
            ))),
            success_path: !self.path.is_empty(),
        }
    }

    /// The description of the outcome a transition takes (when tooltips are built).
    /// The tooltip of transition `t`, which leaves the phase declared at index `phase`.
    fn transition_tooltip(
        &self,
        t: &'a crate::ir::Transition,
        phase: Option<usize>,
    ) -> Option<Text<'a>> {
        if self.tooltips == Tooltips::Omitted {
            return None;
        }
        let described = phase
            .and_then(|i| Some((i, self.spec.graph.phases.get(i)?)))
            .and_then(|(i, p)| Some((self.outcomes.position(i, p, &t.on)?, p)))
            .and_then(|(k, p)| p.outcomes.as_ref()?.get(k))
            .map(|o| shorten(&o.description, TOOLTIP_CHARS));
        described.or_else(|| {
            (t.on == crate::ir::IMPLICIT_OUTCOME).then_some(Cow::Borrowed(
                "implicit outcome of a phase that declares none",
            ))
        })
    }

    /// The edge of transition `t`, which leaves the phase declared at index `phase` (the
    /// first declaration of its `from`, known from the edge's source: not looked up again
    /// by id).
    fn transition_edge(
        &self,
        t: &'a crate::ir::Transition,
        phase: Option<usize>,
        from: NodeId,
        to: NodeId,
    ) -> DiagramEdge<'a> {
        let tooltip = self.transition_tooltip(t, phase);
        let note = (is_mas(self.spec) && t.on == "escalate").then(|| escalation_note(self.spec));
        let next = (phase.and_then(|i| self.facts.get(i).copied()))
            .and_then(|f| f.path_pos)
            .map(|k| self.path.get(k as usize + 1));
        let success_path = match (next, &t.to) {
            (Some(Some(&n)), Destination::Phase(p)) => self.spec.graph.phases[n].id == *p,
            (Some(None), Destination::Terminal(Terminal::End)) => true,
            _ => false,
        };
        DiagramEdge {
            from,
            to,
            kind: EdgeKind::Transition,
            label: shorten(&t.on, 64),
            note,
            tooltip,
            success_path,
        }
    }

    /// Approval into `into` (the guarded phase, or the next gate before it).
    fn approve_edge(&self, into: &Vertex, from: NodeId, to: NodeId) -> DiagramEdge<'a> {
        let guarded = match into {
            Vertex::Phase(i) => self.spec.graph.phases.get(*i).map(|p| p.id.as_str()),
            Vertex::Gate(k) => self.checkpoints.get(*k).map(|c| c.before_phase.as_str()),
            Vertex::Terminal(_) => None,
        };
        let on_path =
            guarded.is_some_and(|p| self.facts_of(p).is_some_and(|f| f.path_pos.is_some()));
        gate_edge(EdgeKind::Approve, "approve", from, to, on_path)
    }
}

/// Which analysed nodes are drawn, and the drawn gates of each phase, by its index.
fn drawn_nodes<'a>(
    spec: &'a Spec,
    info: &'a Info,
    checkpoints: &'a [crate::ir::Checkpoint],
) -> (Drawn<'a>, IdMap<usize, Vec<usize>>) {
    let mut drawn = Drawn {
        phases: vec![false; spec.graph.phases.len()],
        gates: vec![false; checkpoints.len()],
        terminals: &info.terminals_used,
    };
    let mut gate_present = vec![false; checkpoints.len()];
    for n in info.graph.node_weights() {
        match n {
            Vertex::Phase(i) if *i < drawn.phases.len() => drawn.phases[*i] = true,
            Vertex::Gate(k) if *k < gate_present.len() => gate_present[*k] = true,
            _ => {}
        }
    }
    let mut gates_of: IdMap<usize, Vec<usize>> = IdMap::default();
    for (k, c) in checkpoints.iter().enumerate() {
        let phase = (info.phase_index(&spec.graph, &c.before_phase))
            .filter(|i| drawn.phases.get(*i) == Some(&true));
        if let Some(i) = phase.filter(|_| gate_present[k]) {
            gates_of.entry(i).or_default().push(k);
            drawn.gates[k] = true;
        }
    }
    (drawn, gates_of)
}

/// A node with its mark, title, lines, extra lines (access, role) and tooltip.
fn marked<'a>(
    m: NodeMark,
    title: Text<'a>,
    lines: Vec<Text<'a>>,
    (access, role): (Option<String>, Option<String>),
    tooltip: Text<'a>,
) -> DiagramNode<'a> {
    DiagramNode {
        id: m.id,
        kind: m.kind,
        title,
        lines,
        access,
        role,
        binding: None,
        tooltip,
        entry: m.entry,
        reachable: m.reachable,
        trap: m.trap,
    }
}

/// The start marker is drawn by each back end, never among the nodes, which no mark of it
/// comes from: one would be an empty node.
fn empty_node<'a>(m: NodeMark) -> DiagramNode<'a> {
    marked(
        m,
        Cow::Borrowed(""),
        Vec::new(),
        (None, None),
        Cow::Borrowed(""),
    )
}

fn gate_edge<'a>(
    kind: EdgeKind,
    label: &'static str,
    from: NodeId,
    to: NodeId,
    on_path: bool,
) -> DiagramEdge<'a> {
    DiagramEdge {
        from,
        to,
        kind,
        label: Cow::Borrowed(label),
        note: None,
        tooltip: None,
        success_path: on_path,
    }
}

#[cfg(test)]
mod tests;
