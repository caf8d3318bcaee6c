//! Shared text helpers for the text back ends (Mermaid, DOT, PlantUML, Markdown).
//!
//! * free-text clean-up: [`clean`], [`shorten`] and [`wrap`] work on Unicode scalar values,
//!   never split a character, drop control and bidirectional-override characters and fold
//!   every run of whitespace (newlines included) into one space;
//! * [`escape_html`] for targets that take HTML-like markup (DOT `<...>` labels, Markdown);
//! * [`access_summary`]: the compact access-intent line (`tools · knowledge · mem r/w`);
//! * [`Diagram`]: the format-neutral drawing that `mermaid`, `dot` and `plantuml` write, built
//!   once from the IR and [`Info`] (never recomputing graph facts). Node ids are generated
//!   from positions (`p0`, `g0`, `t_end`), never from user text, so they are always valid
//!   identifiers in every target and stable for the same input.
//!
//! Strings in a [`Diagram`] are plain text (cleaned, not escaped): each back end escapes
//! them for its own target.

use crate::ir::{Access, Destination, FixedLoop, IdMap, IdSet, Pattern, Role, Spec, Terminal};
use crate::valid::Info;
use crate::valid::graph::{Edge, Node};

/// Is `c` dropped from diagram and Markdown text: control characters (other than
/// whitespace, which is folded), every bidirectional control (the Unicode `Bidi_Control`
/// set: the Arabic letter mark, LRM/RLM, embeddings, overrides and isolates) and other
/// invisible format characters that could reorder or hide the text around them, and the
/// noncharacters (`U+FFFE`, `U+FFFF`, ...), which XML forbids: Graphviz rejects an HTML-like
/// label holding one, and an SVG holding one is not well-formed.
pub fn is_dropped(c: char) -> bool {
    (c.is_control() && !c.is_whitespace())
        || matches!(
            c,
            '\u{061C}' | '\u{200B}' | '\u{200E}' | '\u{200F}' | '\u{FEFF}'
        )
        || ('\u{202A}'..='\u{202E}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
        || ('\u{FDD0}'..='\u{FDEF}').contains(&c)
        || u32::from(c) & 0xFFFE == 0xFFFE
}

/// Fold whitespace runs (including newlines and tabs) into one space, trim both ends and
/// drop control and bidirectional-control characters.
pub fn clean(s: &str) -> String {
    if is_clean_ascii(s) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if is_dropped(c) {
            continue;
        }
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    out
}

/// Whether `s` is printable ASCII with single spaces between words and none at either end:
/// what [`clean`] would return unchanged (most labels; checked a byte at a time).
fn is_clean_ascii(s: &str) -> bool {
    let b = s.as_bytes();
    b.first() != Some(&b' ')
        && b.last() != Some(&b' ')
        && b.iter().all(|c| (0x20..0x7F).contains(c))
        && !s.contains("  ")
}

/// The ellipsis appended to shortened text.
pub const ELLIPSIS: char = '…';

/// `s` cleaned (see [`clean`]) and cut to at most `max_chars` characters, ending with `…`
/// when something was cut. The cut prefers a word boundary in the last third.
pub fn shorten(s: &str, max_chars: usize) -> String {
    let s = clean(s);
    if s.chars().count() <= max_chars {
        return s;
    }
    if max_chars == 0 {
        return String::new();
    }
    let keep: String = s.chars().take(max_chars - 1).collect();
    let min = keep.len() * 2 / 3;
    let cut = match keep.rfind(' ') {
        Some(i) if i >= min && i > 0 => &keep[..i],
        _ => keep.as_str(),
    };
    let mut out = cut.trim_end().to_owned();
    out.push(ELLIPSIS);
    out
}

/// `s` cleaned and wrapped into lines of at most `width` columns (breaking at spaces,
/// splitting words longer than a line; wide characters such as CJK and most emoji count as
/// two columns), at most `max_lines` lines; the last line ends with `…` when text was left
/// out. An empty text gives no lines.
pub fn wrap(s: &str, width: usize, max_lines: usize) -> Vec<String> {
    let width = width.max(2);
    let text = clean(s);
    let wrapped = first_fit(&text, width, max_lines);
    let truncated = wrapped.len() > max_lines;
    let mut lines: Vec<String> = wrapped
        .into_iter()
        .take(max_lines)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    if truncated && let Some(last) = lines.last_mut() {
        end_with_ellipsis(last, width);
    }
    lines
}

/// The display width of a character (two columns for CJK and most emoji).
fn char_width(c: char) -> usize {
    unicode_width::UnicodeWidthChar::width(c).unwrap_or(0)
}

/// The display width of a text.
fn display_width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}

/// First-fit wrapping of cleaned text (see [`clean`]: words separated by single spaces),
/// as `textwrap` does it with `break_words` and no hyphenation (a test compares the two):
/// words go on a line while they fit, a word wider than a line is split into pieces that
/// fit. Stops after `max_lines + 1` lines, which is enough to know that text was left out
/// (wrapping all of a long objective with textwrap was a tenth of the time of drawing a
/// large loop).
fn first_fit(text: &str, width: usize, max_lines: usize) -> Vec<&str> {
    let mut lines = Vec::new();
    // The current line: where its first piece starts and its last ends, and its width
    // with the space after each piece.
    let mut line: Option<(usize, usize)> = None;
    let mut used = 0;
    for (start, end, piece_width, space) in pieces(text, width) {
        if let Some((from, to)) = line
            && used + piece_width > width
        {
            lines.push(&text[from..to]);
            if lines.len() > max_lines {
                return lines;
            }
            line = None;
            used = 0;
        }
        line = Some((line.map_or(start, |(from, _)| from), end));
        used += piece_width + space;
    }
    if let Some((from, to)) = line {
        lines.push(&text[from..to]);
    }
    lines
}

/// The pieces of cleaned text to place on lines: each word, or for a word wider than
/// `width` the runs of its characters that fit; `(start, end, width, space after)`.
fn pieces(text: &str, width: usize) -> impl Iterator<Item = (usize, usize, usize, usize)> + '_ {
    let mut offset = 0;
    text.split(' ').flat_map(move |word| {
        let start = offset;
        offset += word.len() + 1;
        let space = usize::from(start + word.len() < text.len());
        split_word(word, start, width, space)
    })
}

/// A word as pieces of at most `width` columns (one piece when it fits).
fn split_word(
    word: &str,
    at: usize,
    width: usize,
    space: usize,
) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    let (mut from, mut used) = (0, 0);
    for (i, c) in word.char_indices() {
        let w = char_width(c);
        if used > 0 && used + w > width {
            out.push((at + from, at + i, used, 0));
            from = i;
            used = 0;
        }
        used += w;
    }
    if from < word.len() {
        out.push((at + from, at + word.len(), used, space));
    }
    out
}

/// Cut `line` so that it and a final `…` fit in `width` columns, then add the `…`.
fn end_with_ellipsis(line: &mut String, width: usize) {
    while display_width(line) + 1 > width {
        line.pop();
    }
    let kept = line.trim_end().len();
    line.truncate(kept);
    line.push(ELLIPSIS);
}

/// Escape `&`, `<`, `>`, `"` and `'` for HTML or XML text and attribute values.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The access intent in one compact line, e.g. `tools · knowledge · mem r/w` or
/// `no tools · mem r`. An omitted key is "no opinion" and shows nothing; an explicit
/// `false` shows as `no …`. `None` when there is nothing to show.
pub fn access_summary(access: Option<&Access>) -> Option<String> {
    let a = access?;
    let mut parts: Vec<String> = Vec::new();
    match a.tools {
        Some(true) => parts.push("tools".into()),
        Some(false) => parts.push("no tools".into()),
        None => {}
    }
    match a.knowledge {
        Some(true) => parts.push("knowledge".into()),
        Some(false) => parts.push("no knowledge".into()),
        None => {}
    }
    if let Some(m) = &a.memory {
        let mem = match (m.read, m.write) {
            (Some(true), Some(true)) => Some("mem r/w"),
            (Some(true), Some(false)) => Some("mem r (no w)"),
            (Some(true), None) => Some("mem r"),
            (Some(false), Some(true)) => Some("mem w (no r)"),
            (None, Some(true)) => Some("mem w"),
            (Some(false), Some(false)) => Some("no mem"),
            (Some(false), None) => Some("no mem r"),
            (None, Some(false)) => Some("no mem w"),
            (None, None) => None,
        };
        parts.extend(mem.map(str::to_owned));
    }
    if parts.is_empty() {
        None
    } else {
        Some(parts.join(" · "))
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

/// The id of a node of the analysed graph: `p<i>` for the phase at index `i`, `g<i>` for
/// the checkpoint at index `i`, `t_end`/`t_abort`/`t_handoff` for terminals.
pub fn node_id(node: &Node) -> String {
    match node {
        Node::Phase(i) => format!("p{i}"),
        Node::Gate(i) => format!("g{i}"),
        Node::Terminal(t) => terminal_id(*t).to_owned(),
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
pub struct DiagramNode {
    /// Generated, safe, stable id.
    pub id: String,
    /// What it is.
    pub kind: NodeKind,
    /// Heading: the phase id, `approval` for a gate, or the terminal (`$end`).
    pub title: String,
    /// Body lines: the wrapped objective of a phase, the checkpoint id of a gate, the
    /// meaning of a terminal.
    pub lines: Vec<String>,
    /// Access-intent line of a phase.
    pub access: Option<String>,
    /// MAS role shown on the phase (`validator: qa`, `actor: code-fixer`).
    pub role: Option<String>,
    /// Full text for tooltips (cleaned, bounded).
    pub tooltip: String,
    /// The entry phase.
    pub entry: bool,
    /// Reachable from the entry.
    pub reachable: bool,
    /// A reachable phase from which no terminal can be reached.
    pub trap: bool,
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
pub struct DiagramEdge {
    /// Source node id.
    pub from: String,
    /// Target node id.
    pub to: String,
    /// What it is.
    pub kind: EdgeKind,
    /// The outcome id, `approve` or `reject`; empty for the start edge.
    pub label: String,
    /// A second label line (`escalation: human` on a MAS escalate edge).
    pub note: Option<String>,
    /// Full text for tooltips (the outcome description).
    pub tooltip: Option<String>,
    /// On the shortest successful run ([`Info::shortest_success`]).
    pub success_path: bool,
}

/// A loop as a drawing: nodes in a stable order (each phase preceded by its gates, then
/// the terminals used), edges in the order of the analysed graph.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagram {
    /// The loop name.
    pub title: String,
    /// What kind of loop, its roles and bounds (`VEAL loop · max 3 attempts`).
    pub subtitle: Option<String>,
    /// The loop description (cleaned, bounded), for accessibility text and tooltips.
    pub description: Option<String>,
    /// Id of the node a run starts on, when the entry exists.
    pub start: Option<String>,
    /// Nodes.
    pub nodes: Vec<DiagramNode>,
    /// Edges.
    pub edges: Vec<DiagramEdge>,
}

impl Diagram {
    /// Build the drawing of a loop from its IR and analysis.
    pub fn new(spec: &Spec, info: &Info) -> Diagram {
        build(spec, info)
    }

    /// About how many bytes a drawing of this diagram takes, to size the output once
    /// instead of growing it by doubling (which copied a large drawing several times).
    /// Generous: capacity that is never written is never touched.
    pub fn text_size_hint(&self) -> usize {
        let node_text: usize = self
            .nodes
            .iter()
            .map(|n| n.lines.iter().map(String::len).sum::<usize>() + n.tooltip.len())
            .sum();
        4096 + 2 * node_text + 400 * self.nodes.len() + 200 * self.edges.len()
    }

    /// The node with this id.
    pub fn node(&self, id: &str) -> Option<&DiagramNode> {
        self.nodes.iter().find(|n| n.id == id)
    }
}

fn is_mas(spec: &Spec) -> bool {
    matches!(spec.pattern, Pattern::Real | Pattern::Veal)
}

/// The MAS role shown on a phase of a REAL/VEAL loop.
fn role_of(spec: &Spec, phase_id: &str) -> Option<String> {
    let (word, agent) = match FixedLoop::of(spec.pattern)?.role_of(phase_id)? {
        Role::Validator => ("validator", spec.roles.validator.as_ref()?),
        Role::Actor => ("actor", spec.roles.actor.as_ref()?),
    };
    Some(format!("{word}: {}", shorten(agent, ROLE_CHARS)))
}

/// The escalation note on a MAS `escalate` edge.
fn escalation_note(spec: &Spec) -> String {
    let e = spec.effective_escalation();
    match (e, &spec.roles.fallback_agent) {
        (crate::ir::Escalation::Fallback, Some(agent)) => {
            format!("escalation: fallback → {}", shorten(agent, ROLE_CHARS))
        }
        _ => format!("escalation: {}", e.as_str()),
    }
}

fn subtitle(spec: &Spec) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    match spec.pattern {
        Pattern::Real => parts.push("REAL loop".into()),
        Pattern::Veal => parts.push("VEAL loop".into()),
        Pattern::General => {
            // The archetype, unless it only repeats the name.
            let name = clean(&spec.name);
            let archetype = spec.archetype.as_deref().map(clean);
            if let Some(a) = archetype.filter(|a| !a.is_empty() && *a != name) {
                parts.push(shorten(&a, 40));
            }
        }
    }
    if is_mas(spec) {
        parts.push(format!("max {} attempts", spec.effective_max_attempts()));
    } else if let Some(m) = spec.bounds.max_steps {
        parts.push(format!("max {m} steps"));
    }
    if parts.is_empty() {
        None
    } else {
        Some(parts.join(" · "))
    }
}

fn build(spec: &Spec, info: &Info) -> Diagram {
    let ctx = Context::new(spec, info);
    let nodes = ctx.nodes();
    let ids: IdSet<&str> = nodes.iter().map(|n| n.id.as_str()).collect();
    let start = info
        .start
        .and_then(|s| info.graph.node_weight(s))
        .map(node_id)
        .filter(|id| ids.contains(id.as_str()));
    let mut edges: Vec<DiagramEdge> = start.iter().map(|s| ctx.start_edge(s)).collect();
    edges.extend(ctx.edges(&ids));
    Diagram {
        title: shorten(&spec.name, 80),
        subtitle: subtitle(spec),
        description: spec
            .description
            .as_deref()
            .map(|d| shorten(d, TOOLTIP_CHARS))
            .filter(|d| !d.is_empty()),
        start,
        nodes,
        edges,
    }
}

/// What drawing needs to look up, indexed by id so that drawing stays linear in the size
/// of the loop.
struct Context<'a> {
    spec: &'a Spec,
    info: &'a Info,
    checkpoints: &'a [crate::ir::Checkpoint],
    /// The shortest successful run.
    path: &'a [String],
    /// Position of each phase on it (first occurrence).
    path_pos: IdMap<&'a str, usize>,
    reachable: IdSet<&'a str>,
    traps: IdSet<&'a str>,
    /// The first declaration of each phase id.
    first_phase: IdMap<&'a str, &'a crate::ir::Phase>,
}

impl<'a> Context<'a> {
    fn new(spec: &'a Spec, info: &'a Info) -> Self {
        let path: &[String] = info.shortest_success.as_deref().unwrap_or(&[]);
        let mut first_phase = crate::ir::id_map(spec.graph.phases.len());
        for p in &spec.graph.phases {
            first_phase.entry(p.id.as_str()).or_insert(p);
        }
        Context {
            spec,
            info,
            checkpoints: spec.graph.checkpoints.as_deref().unwrap_or(&[]),
            path,
            path_pos: path
                .iter()
                .enumerate()
                .rev()
                .map(|(k, p)| (p.as_str(), k))
                .collect(),
            reachable: info.reachable_phases.iter().map(String::as_str).collect(),
            traps: info.trap_phases.iter().map(String::as_str).collect(),
            first_phase,
        }
    }

    /// Each analysed phase preceded by its gates, then the terminals used.
    fn nodes(&self) -> Vec<DiagramNode> {
        // The analysed nodes that exist (phases are the first declaration of each id; gates
        // only for checkpoints whose phase exists).
        let mut phase_present = vec![false; self.spec.graph.phases.len()];
        let mut gate_present = vec![false; self.checkpoints.len()];
        for n in self.info.graph.node_weights() {
            match n {
                Node::Phase(i) if *i < phase_present.len() => phase_present[*i] = true,
                Node::Gate(i) if *i < gate_present.len() => gate_present[*i] = true,
                _ => {}
            }
        }
        let mut gates_of: IdMap<&str, Vec<usize>> = IdMap::default();
        for (k, c) in self.checkpoints.iter().enumerate() {
            if gate_present[k] {
                gates_of.entry(c.before_phase.as_str()).or_default().push(k);
            }
        }
        let mut nodes = Vec::new();
        for (i, p) in self.spec.graph.phases.iter().enumerate() {
            if !phase_present[i] {
                continue;
            }
            // Every way into a phase passes its gates, so they share reachability.
            let reachable = self.reachable.contains(p.id.as_str());
            let gates = gates_of
                .get(p.id.as_str())
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            nodes.extend(gates.iter().map(|&k| self.gate_node(k, p, reachable)));
            nodes.push(self.phase_node(i, p, reachable));
        }
        nodes.extend(
            self.info
                .terminals_used
                .iter()
                .map(|t| self.terminal_node(*t)),
        );
        nodes
    }

    fn gate_node(&self, k: usize, p: &crate::ir::Phase, reachable: bool) -> DiagramNode {
        let c = &self.checkpoints[k];
        let tooltip = format!(
            "approval checkpoint {} before {}; rejection goes to {}",
            c.id,
            p.id,
            c.on_reject.as_str()
        );
        DiagramNode {
            id: node_id(&Node::Gate(k)),
            kind: NodeKind::Gate,
            title: "approval".to_owned(),
            lines: vec![shorten(&c.id, 64)],
            access: None,
            role: None,
            tooltip: shorten(&tooltip, TOOLTIP_CHARS),
            entry: false,
            reachable,
            trap: false,
        }
    }

    fn phase_node(&self, i: usize, p: &crate::ir::Phase, reachable: bool) -> DiagramNode {
        DiagramNode {
            id: node_id(&Node::Phase(i)),
            kind: NodeKind::Phase,
            title: shorten(&p.id, 64),
            lines: wrap(&p.objective, LINE_WIDTH, OBJECTIVE_LINES),
            access: access_summary(p.access.as_ref()),
            role: role_of(self.spec, &p.id),
            tooltip: shorten(&p.objective, TOOLTIP_CHARS),
            entry: p.id == self.spec.graph.entry,
            reachable,
            trap: self.traps.contains(p.id.as_str()),
        }
    }

    fn terminal_node(&self, t: Terminal) -> DiagramNode {
        DiagramNode {
            id: terminal_id(t).to_owned(),
            kind: NodeKind::Terminal(t),
            title: t.as_str().to_owned(),
            lines: vec![t.meaning().to_owned()],
            access: None,
            role: None,
            tooltip: format!("{}: {}", t.as_str(), t.meaning()),
            entry: false,
            reachable: self.info.reachable_terminals.contains(&t),
            trap: false,
        }
    }

    fn start_edge(&self, to: &str) -> DiagramEdge {
        DiagramEdge {
            from: START_ID.to_owned(),
            to: to.to_owned(),
            kind: EdgeKind::Start,
            label: String::new(),
            note: None,
            tooltip: Some(format!("entry: {}", shorten(&self.spec.graph.entry, 64))),
            success_path: !self.path.is_empty(),
        }
    }

    /// The analysed graph's edges between drawn nodes, in its order.
    fn edges(&self, drawn: &IdSet<&str>) -> Vec<DiagramEdge> {
        let graph = &self.info.graph;
        let mut edges = Vec::new();
        for e in graph.edge_indices() {
            let (Some((a, b)), Some(w)) = (graph.edge_endpoints(e), graph.edge_weight(e)) else {
                continue;
            };
            let (Some(na), Some(nb)) = (graph.node_weight(a), graph.node_weight(b)) else {
                continue;
            };
            let (from, to) = (node_id(na), node_id(nb));
            if !drawn.contains(from.as_str()) || !drawn.contains(to.as_str()) {
                continue;
            }
            let edge = match w {
                Edge::Transition(i) => match self.spec.graph.transitions.get(*i) {
                    Some(t) => self.transition_edge(t, from, to),
                    None => continue,
                },
                Edge::Approve => self.approve_edge(nb, from, to),
                Edge::Reject => gate_edge(EdgeKind::Reject, "reject", from, to, false),
            };
            edges.push(edge);
        }
        edges
    }

    fn transition_edge(&self, t: &crate::ir::Transition, from: String, to: String) -> DiagramEdge {
        let described = self
            .first_phase
            .get(t.from.as_str())
            .and_then(|p| p.outcomes.as_ref())
            .and_then(|os| os.iter().find(|o| o.id == t.on))
            .map(|o| shorten(&o.description, TOOLTIP_CHARS));
        let tooltip = described.or_else(|| {
            (t.on == crate::ir::IMPLICIT_OUTCOME)
                .then(|| "implicit outcome of a phase that declares none".to_owned())
        });
        let note = (is_mas(self.spec) && t.on == "escalate").then(|| escalation_note(self.spec));
        let next = self
            .path_pos
            .get(t.from.as_str())
            .map(|k| self.path.get(k + 1));
        let success_path = match (next, &t.to) {
            (Some(Some(n)), Destination::Phase(p)) => n == p,
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
    fn approve_edge(&self, into: &Node, from: String, to: String) -> DiagramEdge {
        let guarded = match into {
            Node::Phase(i) => self.spec.graph.phases.get(*i).map(|p| p.id.as_str()),
            Node::Gate(k) => self.checkpoints.get(*k).map(|c| c.before_phase.as_str()),
            Node::Terminal(_) => None,
        };
        let on_path = guarded.is_some_and(|p| self.path_pos.contains_key(p));
        gate_edge(EdgeKind::Approve, "approve", from, to, on_path)
    }
}

fn gate_edge(kind: EdgeKind, label: &str, from: String, to: String, on_path: bool) -> DiagramEdge {
    DiagramEdge {
        from,
        to,
        kind,
        label: label.to_owned(),
        note: None,
        tooltip: None,
        success_path: on_path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`wrap`] as textwrap does it, on the whole cleaned text: the oracle for `first_fit`.
    fn wrap_whole(s: &str, width: usize, max_lines: usize) -> Vec<String> {
        let width = width.max(2);
        let text = clean(s);
        let opts = textwrap::Options::new(width)
            .break_words(true)
            .word_splitter(textwrap::WordSplitter::NoHyphenation)
            .wrap_algorithm(textwrap::WrapAlgorithm::FirstFit);
        let wrapped = textwrap::wrap(&text, opts);
        let truncated = wrapped.len() > max_lines;
        let mut lines: Vec<String> = wrapped
            .into_iter()
            .take(max_lines)
            .map(|l| l.into_owned())
            .filter(|l| !l.is_empty())
            .collect();
        if truncated && let Some(last) = lines.last_mut() {
            end_with_ellipsis(last, width);
        }
        lines
    }

    #[test]
    fn wrapping_a_prefix_gives_the_lines_of_the_whole_text() {
        let words = [
            "a",
            "word",
            "日本語",
            "🚀🔥",
            "x",
            "longlonglonglonglonglonglonglonglonglong",
            "  ",
            "\n",
            "é",
        ];
        let mut seed = 7u64;
        for _ in 0..3000 {
            let mut text = String::new();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let n = (seed >> 33) as usize % 80;
            for k in 0..n {
                let w = words[((seed >> (k % 40)) as usize + k * 7) % words.len()];
                text.push_str(w);
                if (seed >> (k % 50)) & 1 == 0 {
                    text.push(' ');
                }
            }
            for (width, lines) in [(2, 1), (5, 2), (34, 2), (40, 3)] {
                assert_eq!(
                    wrap(&text, width, lines),
                    wrap_whole(&text, width, lines),
                    "{text:?} {width} {lines}"
                );
            }
        }
    }

    #[test]
    fn wrap_counts_wide_characters_as_two_columns() {
        let lines = wrap("日本語のテキスト 🚀🔥🚀🔥🚀🔥 end", 10, 3);
        assert_eq!(lines, ["日本語のテ", "キスト", "🚀🔥🚀🔥…"]);
        for l in &lines {
            assert!(display_width(l) <= 10, "{l}");
        }
        assert_eq!(
            wrap("style p0 fill:#f00,stroke-width:9px", 34, 2),
            ["style p0", "fill:#f00,stroke-width:9px"]
        );
    }

    #[test]
    fn clean_folds_whitespace_and_drops_controls() {
        assert_eq!(clean("  a\n\tb  \r\n c "), "a b c");
        assert_eq!(clean("x\u{202E}y\u{0007}z"), "xyz");
        assert_eq!(
            clean("a\u{061C}b\u{FFFF}c\u{FFFE}d\u{FDD0}e\u{10FFFF}f"),
            "abcdef"
        );
        assert_eq!(clean(""), "");
    }

    #[test]
    fn shorten_counts_characters_not_bytes() {
        assert_eq!(shorten("日本語のテキスト", 100), "日本語のテキスト");
        assert_eq!(shorten("日本語のテキスト", 4), "日本語…");
        assert_eq!(shorten("emoji 🚀🔥", 7), "emoji…");
        let long = "word ".repeat(100);
        let s = shorten(&long, 60);
        assert!(s.chars().count() <= 60);
        assert!(s.ends_with(ELLIPSIS));
        assert_eq!(shorten("abc", 0), "");
        assert_eq!(shorten("abc", 1), "…");
    }

    #[test]
    fn wrap_breaks_at_spaces_and_bounds_lines() {
        assert_eq!(wrap("one two three", 7, 3), vec!["one two", "three"]);
        assert_eq!(wrap("", 10, 2), Vec::<String>::new());
        let w = wrap(&"x".repeat(500), 10, 2);
        assert_eq!(w.len(), 2);
        assert!(w.iter().all(|l| l.chars().count() <= 10));
        assert!(w[1].ends_with(ELLIPSIS));
        let w = wrap("aaa bbb ccc ddd eee", 7, 2);
        assert_eq!(w, vec!["aaa bbb", "ccc dd…"]);
        assert_eq!(wrap("a\nb", 10, 2), vec!["a b"]);
    }

    #[test]
    fn access_summary_keeps_no_opinion_apart_from_false() {
        use crate::ir::MemoryAccess;
        assert_eq!(access_summary(None), None);
        assert_eq!(access_summary(Some(&Access::default())), None);
        let a = Access {
            tools: Some(true),
            knowledge: Some(true),
            memory: Some(MemoryAccess {
                read: Some(true),
                write: Some(true),
            }),
        };
        assert_eq!(
            access_summary(Some(&a)).as_deref(),
            Some("tools · knowledge · mem r/w")
        );
        let a = Access {
            tools: Some(false),
            knowledge: None,
            memory: Some(MemoryAccess {
                read: Some(true),
                write: None,
            }),
        };
        assert_eq!(
            access_summary(Some(&a)).as_deref(),
            Some("no tools · mem r")
        );
    }

    /// Drawing never panics, whatever the loop: every example, the broken ones included
    /// (whatever part of them could be read), in every diagram back end.
    #[test]
    fn every_example_draws_without_panicking() {
        use crate::load::{LoadOptions, load};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
        let mut dirs = vec![root];
        let mut drawn = 0;
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                let path = e.path();
                if path.is_dir() {
                    dirs.push(path);
                    continue;
                }
                let Ok(bytes) = std::fs::read(&path) else {
                    continue;
                };
                let l = load(&path.to_string_lossy(), &bytes, &LoadOptions::default());
                if let (Some(spec), Some(info)) = (&l.spec, &l.info) {
                    let d = Diagram::new(spec, info);
                    for e in &d.edges {
                        assert!(e.from == START_ID || d.node(&e.from).is_some());
                        assert!(d.node(&e.to).is_some());
                    }
                    for style in [
                        crate::back::mermaid::Style::Flowchart,
                        crate::back::mermaid::Style::State,
                    ] {
                        assert!(!crate::back::mermaid::draw(spec, info, style).is_empty());
                    }
                    assert!(crate::back::dot::draw(spec, info, true).ends_with("}\n"));
                    let puml = crate::back::plantuml::draw(spec, info);
                    assert!(puml.ends_with("@enduml\n"));
                    drawn += 1;
                }
            }
        }
        assert!(drawn > 10, "only {drawn} examples drawn");
    }

    #[test]
    fn escape_html_escapes_markup() {
        assert_eq!(
            escape_html("<img src=x onerror=\"a\">&amp;'"),
            "&lt;img src=x onerror=&quot;a&quot;&gt;&amp;amp;&#39;"
        );
    }
}
