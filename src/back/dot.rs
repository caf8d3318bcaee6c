//! Graphviz DOT.
//!
//! Draws the same [`Drawing`] as the Mermaid back end, top to bottom (`rankdir=TB`):
//! phases as rounded boxes (entry with a thick blue border), approval gates as violet
//! hexagons, terminals as `$end` green double circle, `$abort` red octagon, `$handoff`
//! amber `cds` (a sign pointing away), a small dot marking the start. Every transition is
//! labelled with its outcome; gate rejections are dashed; the shortest successful run is
//! drawn with thicker arrows. Full objectives and outcome descriptions are tooltips.
//!
//! Attributes are typed ([`Shape`], [`NodeStyle`], [`EdgeStyle`], [`NodeAttrs`],
//! [`EdgeAttrs`]) and written by one function, so escaping happens in exactly one place:
//! quoted strings escape `\`, `"` and `&` (and never contain a newline), and HTML-like labels
//! are built by [`Html`], which escapes `&`, `<`, `>`, `"` and `'` in every piece of text
//! and doubles `\` (Graphviz expands `\N` and friends there too).
//! Node ids are generated (`p0`, `g0`, `t_end`), never taken from user text.

use std::fmt::Write as _;

use super::{Error, Options};
use crate::back::support::chunks::Output;
use crate::back::support::diagram::{
    DiagramEdge, DiagramNode, Drawing, EdgeKind, NodeId, NodeKind, START_ID, Tooltips,
};
use crate::diag::Diagnostics;
use crate::ir::{Spec, Terminal};
use crate::text::escape_runs;
use crate::valid::Info;

/// Write the graph (with a legend of the shapes and colours when `opts.legend`).
pub fn write(
    spec: &Spec,
    info: &Info,
    opts: &Options,
    _diags: &mut Diagnostics,
) -> Result<String, Error> {
    let d = Drawing::new(spec, info, Tooltips::Built).for_agent(opts.agent.as_ref());
    let legend = opts.legend;
    Ok(d.text(NODE_SYNTAX, EDGE_SYNTAX, |d, out| graph(d, legend, out)))
}

/// The graph, with or without a legend.
pub fn draw(spec: &Spec, info: &Info, legend: bool) -> String {
    let d = Drawing::new(spec, info, Tooltips::Built);
    d.text(NODE_SYNTAX, EDGE_SYNTAX, |d, out| graph(d, legend, out))
}

/// The graph (with a legend when `opts.legend`, for `opts.agent` when given), handed to
/// `sink` as it is written (never held whole).
pub fn draw_to(
    spec: &Spec,
    info: &Info,
    opts: &Options,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let d = Drawing::new(spec, info, Tooltips::Built).for_agent(opts.agent.as_ref());
    d.stream(sink, |d, out| graph(d, opts.legend, out))
}

/// The font stack used for every label.
const FONT: &str = "Helvetica,Arial,sans-serif";

/// Colours (the same palette as the Mermaid back end).
mod color {
    pub const INK: &str = "#0f172a";
    pub const SLATE: &str = "#475569";
    pub const MUTED: &str = "#64748b";
    pub const PHASE_FILL: &str = "#f8fafc";
    pub const ENTRY: &str = "#1d4ed8";
    pub const GATE: &str = "#7c3aed";
    pub const GATE_FILL: &str = "#ede9fe";
    pub const GATE_INK: &str = "#3b0764";
    pub const SUCCESS: &str = "#16a34a";
    pub const SUCCESS_FILL: &str = "#dcfce7";
    pub const SUCCESS_INK: &str = "#14532d";
    pub const FAILURE: &str = "#dc2626";
    pub const FAILURE_FILL: &str = "#fee2e2";
    pub const FAILURE_INK: &str = "#7f1d1d";
    pub const HANDOFF: &str = "#d97706";
    pub const HANDOFF_FILL: &str = "#fef3c7";
    pub const HANDOFF_INK: &str = "#78350f";
    pub const GREY: &str = "#94a3b8";
    pub const GREY_FILL: &str = "#f1f5f9";
    pub const BOUND: &str = "#0d9488";
    pub const BOUND_FILL: &str = "#ccfbf1";
    pub const BOUND_INK: &str = "#134e4a";
}

/// Node shapes used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Phases (with [`NodeStyle::Rounded`]).
    Box,
    /// Approval gates.
    Hexagon,
    /// `$end`.
    DoubleCircle,
    /// `$abort`.
    Octagon,
    /// `$handoff`.
    Cds,
    /// The start marker.
    Point,
}

impl Shape {
    fn as_str(self) -> &'static str {
        match self {
            Shape::Box => "box",
            Shape::Hexagon => "hexagon",
            Shape::DoubleCircle => "doublecircle",
            Shape::Octagon => "octagon",
            Shape::Cds => "cds",
            Shape::Point => "point",
        }
    }
}

/// Node styles used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeStyle {
    /// `filled`.
    Filled,
    /// `rounded,filled`.
    Rounded,
    /// `rounded,filled,dashed`: unreachable or trapped phases.
    RoundedDashed,
}

impl NodeStyle {
    fn as_str(self) -> &'static str {
        match self {
            NodeStyle::Filled => "filled",
            NodeStyle::Rounded => "rounded,filled",
            NodeStyle::RoundedDashed => "rounded,filled,dashed",
        }
    }
}

/// Edge styles used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeStyle {
    /// A solid line.
    Solid,
    /// A dashed line: gate rejections.
    Dashed,
}

impl EdgeStyle {
    fn as_str(self) -> &'static str {
        match self {
            EdgeStyle::Solid => "solid",
            EdgeStyle::Dashed => "dashed",
        }
    }
}

/// Text for an HTML-like label: `&<>"'` as entities, and `\` doubled. Graphviz expands
/// `\N`, `\G`, `\E`... (node, graph, edge names) and `\\` in the text of HTML-like labels
/// too, after decoding entities, so `&#92;` would not help; `\\` is drawn as one `\`.
pub fn html_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    html_text_into(&mut out, s);
    out
}

/// [`html_text`], appended to `out`.
fn html_text_into(out: &mut String, s: &str) {
    // `|` rather than `matches!`, as in `is_quoted_special`.
    let special =
        |b: u8| (b == b'&') | (b == b'<') | (b == b'>') | (b == b'"') | (b == b'\'') | (b == b'\\');
    escape_runs(out, s, special, |out, c, _| {
        out.push_str(match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            '\'' => "&#39;",
            _ => "\\\\",
        })
    });
}

/// An HTML-like label under construction: markup comes from the methods, every piece of
/// text is escaped by [`html_text`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Html(String);

impl Html {
    fn text(mut self, s: &str) -> Self {
        html_text_into(&mut self.0, s);
        self
    }
    fn bold(mut self, s: &str) -> Self {
        self.0.push_str("<B>");
        html_text_into(&mut self.0, s);
        self.0.push_str("</B>");
        self
    }
    fn small(mut self, s: &str, color: &'static str) -> Self {
        self.0.push_str("<FONT POINT-SIZE=\"9\" COLOR=\"");
        self.0.push_str(color);
        self.0.push_str("\">");
        html_text_into(&mut self.0, s);
        self.0.push_str("</FONT>");
        self
    }
    fn br(mut self) -> Self {
        self.0.push_str("<BR/>");
        self
    }
}

/// A label: plain (escaped as a quoted string) or HTML-like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Label<'a> {
    /// Plain text.
    Text(&'a str),
    /// HTML-like markup built by [`Html`].
    Html(Html),
}

/// The attributes of a node.
#[derive(Debug, Clone, Default)]
pub struct NodeAttrs<'a> {
    label: Option<Label<'a>>,
    shape: Option<Shape>,
    style: Option<NodeStyle>,
    color: Option<&'static str>,
    fillcolor: Option<&'static str>,
    fontcolor: Option<&'static str>,
    penwidth: Option<&'static str>,
    width: Option<&'static str>,
    margin: Option<&'static str>,
    tooltip: Option<&'a str>,
}

/// The attributes of an edge.
#[derive(Debug, Clone, Default)]
pub struct EdgeAttrs<'a> {
    label: Option<Label<'a>>,
    style: Option<EdgeStyle>,
    color: Option<&'static str>,
    fontcolor: Option<&'static str>,
    penwidth: Option<&'static str>,
    tooltip: Option<&'a str>,
}

/// One attribute value, written by [`write_attrs`].
enum AttrValue<'a> {
    /// A DOT ID that needs no quoting (keywords, numbers): always one of ours.
    Bare(&'static str),
    /// Any text: written as a quoted string.
    Quoted(&'a str),
    /// One of ours that [`quote`] leaves as it is (a colour, a style): written between
    /// quotes without looking for what to escape.
    Ours(&'static str),
    /// HTML-like label.
    Html(&'a Html),
}

/// A quoted DOT string: `\` and `"` escaped; line breaks (never present after cleaning)
/// become `\n`. `&` becomes `&amp;`: Graphviz decodes HTML entities in every string it
/// draws (labels, tooltips), so a text holding `&#60;b&#62;` or `&lt;` would otherwise be
/// drawn as `<b>` or `<`, not as written.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    quote_into(&mut out, s);
    out
}

/// [`quote`], appended to `out`.
fn quote_into(out: &mut String, s: &str) {
    out.push('"');
    // The C1 control characters (U+0080 to U+009F) are the ones whose first byte is
    // 0xC2; every other non-ASCII character is copied with its run.
    let stop = |b: u8| (b == 0xC2) | is_quoted_special(b);
    escape_runs(out, s, stop, |out, c, _| match c {
        '\\' => out.push_str("\\\\"),
        '"' => out.push_str("\\\""),
        '&' => out.push_str("&amp;"),
        '\n' => out.push_str("\\n"),
        c if c.is_control() => out.push(' '),
        c => out.push(c),
    });
    out.push('"');
}

/// The ASCII characters [`quote_into`] does not copy as they are.
/// Written with `|`, not `||` or `matches!`, so that the compiler checks many bytes at
/// once: the short-circuiting form was a tenth of drawing a loop with long objectives.
fn is_quoted_special(b: u8) -> bool {
    (b == b'\\') | (b == b'"') | (b == b'&') | (b < 0x20) | (b == 0x7f)
}

fn write_attrs<'v>(
    out: &mut String,
    attrs: impl IntoIterator<Item = &'v (&'v str, AttrValue<'v>)>,
) {
    let mut attrs = attrs.into_iter().peekable();
    if attrs.peek().is_none() {
        return;
    }
    out.push_str(" [");
    for (i, (k, v)) in attrs.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(k);
        out.push('=');
        match v {
            AttrValue::Bare(s) => out.push_str(s),
            AttrValue::Quoted(s) => quote_into(out, s),
            AttrValue::Ours(s) => {
                debug_assert!(!s.bytes().any(|b| (b == 0xC2) | is_quoted_special(b)));
                out.push('"');
                out.push_str(s);
                out.push('"');
            }
            AttrValue::Html(h) => {
                out.push('<');
                out.push_str(&h.0);
                out.push('>');
            }
        }
    }
    out.push(']');
}

fn label_value<'a>(l: &'a Label<'_>) -> AttrValue<'a> {
    match l {
        Label::Text(s) => AttrValue::Quoted(s),
        Label::Html(h) => AttrValue::Html(h),
    }
}

/// The attributes of a node or an edge in their order, `None` for one not set.
type AttrPairs<'a, const N: usize> = [Option<(&'static str, AttrValue<'a>)>; N];

/// The attributes most nodes share (a reachable phase's), written once as the graph's
/// node defaults: a node statement writes only the attributes in which it differs, which
/// took a sixth off the DOT of a large loop. Every node sets each of them
/// ([`NodeAttrs::beside`]), so none inherits one by omission.
const NODE_DEFAULTS: NodeAttrs<'static> = NodeAttrs {
    label: None,
    shape: Some(Shape::Box),
    style: Some(NodeStyle::Rounded),
    color: Some(color::SLATE),
    fillcolor: Some(color::PHASE_FILL),
    fontcolor: Some(color::INK),
    penwidth: Some("1.5"),
    width: None,
    margin: None,
    tooltip: None,
};

/// The edge attributes most edges share (a transition's colour), written once as the
/// graph's edge defaults.
const EDGE_DEFAULTS: EdgeAttrs<'static> = EdgeAttrs {
    label: None,
    style: None,
    color: Some(color::SLATE),
    fontcolor: None,
    penwidth: None,
    tooltip: None,
};

/// `value`, or `None` when it is the default's: a value the defaults hold is left out.
fn unless_default<T: PartialEq>(value: Option<T>, default: Option<T>) -> Option<T> {
    if default.is_some() && value == default {
        None
    } else {
        value
    }
}

impl<'a> NodeAttrs<'a> {
    /// These attributes as a statement writes them beside [`NODE_DEFAULTS`]: the ones equal
    /// to a default left out.
    fn beside(self, d: &NodeAttrs<'static>) -> NodeAttrs<'a> {
        NodeAttrs {
            shape: unless_default(self.shape, d.shape),
            style: unless_default(self.style, d.style),
            color: unless_default(self.color, d.color),
            fillcolor: unless_default(self.fillcolor, d.fillcolor),
            fontcolor: unless_default(self.fontcolor, d.fontcolor),
            penwidth: unless_default(self.penwidth, d.penwidth),
            width: unless_default(self.width, d.width),
            margin: unless_default(self.margin, d.margin),
            ..self
        }
    }
}

impl<'a> EdgeAttrs<'a> {
    /// These attributes as a statement writes them beside [`EDGE_DEFAULTS`].
    fn beside(self, d: &EdgeAttrs<'static>) -> EdgeAttrs<'a> {
        EdgeAttrs {
            style: unless_default(self.style, d.style),
            color: unless_default(self.color, d.color),
            fontcolor: unless_default(self.fontcolor, d.fontcolor),
            penwidth: unless_default(self.penwidth, d.penwidth),
            ..self
        }
    }
}

impl NodeAttrs<'_> {
    fn pairs(&self) -> AttrPairs<'_, 10> {
        let quoted = |k, v: Option<&'static str>| v.map(|v| (k, AttrValue::Ours(v)));
        let bare = |k, v: Option<&'static str>| v.map(|v| (k, AttrValue::Bare(v)));
        [
            self.label.as_ref().map(|l| ("label", label_value(l))),
            bare("shape", self.shape.map(Shape::as_str)),
            quoted("style", self.style.map(NodeStyle::as_str)),
            quoted("color", self.color),
            quoted("fillcolor", self.fillcolor),
            quoted("fontcolor", self.fontcolor),
            bare("penwidth", self.penwidth),
            bare("width", self.width),
            quoted("margin", self.margin),
            self.tooltip.map(|t| ("tooltip", AttrValue::Quoted(t))),
        ]
    }
}

impl EdgeAttrs<'_> {
    fn pairs(&self) -> AttrPairs<'_, 6> {
        let quoted = |k, v: Option<&'static str>| v.map(|v| (k, AttrValue::Ours(v)));
        [
            self.label.as_ref().map(|l| ("label", label_value(l))),
            self.style.map(|s| ("style", AttrValue::Bare(s.as_str()))),
            quoted("color", self.color),
            quoted("fontcolor", self.fontcolor),
            self.penwidth.map(|p| ("penwidth", AttrValue::Bare(p))),
            self.tooltip.map(|t| ("tooltip", AttrValue::Quoted(t))),
        ]
    }
}

fn node_attrs<'a>(n: &'a DiagramNode) -> NodeAttrs<'a> {
    match n.kind {
        NodeKind::Phase => phase_attrs(n),
        NodeKind::Gate => NodeAttrs {
            label: Some(Label::Html(gate_label(n))),
            shape: Some(Shape::Hexagon),
            style: Some(NodeStyle::Filled),
            color: Some(color::GATE),
            fillcolor: Some(color::GATE_FILL),
            fontcolor: Some(color::GATE_INK),
            penwidth: Some("1.5"),
            tooltip: Some(&n.tooltip),
            margin: Some("0.02,0.02"),
            ..NodeAttrs::default()
        },
        NodeKind::Terminal(t) => terminal_attrs(n, t),
    }
}

/// A phase: its title, lines, access, role and binding; its border says whether it is
/// the entry, bound, a trap or unreachable.
fn phase_attrs<'a>(n: &'a DiagramNode) -> NodeAttrs<'a> {
    let mut h = Html::default().bold(&n.title);
    for l in &n.lines {
        h = h.br().text(l);
    }
    for extra in [&n.access, &n.role].into_iter().flatten() {
        h = h.br().small(extra, color::SLATE);
    }
    if let Some(binding) = &n.binding {
        h = h.br().small(binding, color::BOUND_INK);
    }
    let bound = n.binding.is_some() && n.reachable;
    let dashed = !n.reachable || n.trap;
    let (border, pen) = if n.trap {
        (color::FAILURE, "2.5")
    } else if !n.reachable {
        (color::GREY, "1.5")
    } else if n.entry {
        (color::ENTRY, "3")
    } else if bound {
        (color::BOUND, "2.5")
    } else {
        (color::SLATE, "1.5")
    };
    NodeAttrs {
        label: Some(Label::Html(h)),
        shape: Some(Shape::Box),
        style: Some(if dashed {
            NodeStyle::RoundedDashed
        } else {
            NodeStyle::Rounded
        }),
        color: Some(border),
        fillcolor: Some(if bound {
            color::BOUND_FILL
        } else if n.reachable {
            color::PHASE_FILL
        } else {
            color::GREY_FILL
        }),
        fontcolor: Some(if n.reachable {
            color::INK
        } else {
            color::MUTED
        }),
        penwidth: Some(pen),
        tooltip: Some(&n.tooltip),
        ..NodeAttrs::default()
    }
}

/// An end of the loop: its shape and colours say which.
fn terminal_attrs<'a>(n: &'a DiagramNode, t: Terminal) -> NodeAttrs<'a> {
    let (shape, line, fill, ink, margin) = match t {
        Terminal::End => (
            Shape::DoubleCircle,
            color::SUCCESS,
            color::SUCCESS_FILL,
            color::SUCCESS_INK,
            "0.04,0.02",
        ),
        Terminal::Abort => (
            Shape::Octagon,
            color::FAILURE,
            color::FAILURE_FILL,
            color::FAILURE_INK,
            "0.1,0.04",
        ),
        Terminal::Handoff => (
            Shape::Cds,
            color::HANDOFF,
            color::HANDOFF_FILL,
            color::HANDOFF_INK,
            "0.16,0.06",
        ),
    };
    let mut h = Html::default().bold(&n.title);
    for l in &n.lines {
        h = h.br().text(l);
    }
    NodeAttrs {
        label: Some(Label::Html(h)),
        shape: Some(shape),
        style: Some(NodeStyle::Filled),
        color: Some(line),
        fillcolor: Some(fill),
        fontcolor: Some(ink),
        penwidth: Some("2"),
        margin: Some(margin),
        tooltip: Some(&n.tooltip),
        ..NodeAttrs::default()
    }
}

/// `approval` above the checkpoint id (a narrower hexagon than one line).
fn gate_label(n: &DiagramNode) -> Html {
    let mut h = Html::default().small(&n.title, color::GATE);
    for l in &n.lines {
        h = h.br().text(l);
    }
    h
}

fn edge_attrs<'a>(e: &'a DiagramEdge) -> EdgeAttrs<'a> {
    let label = match (&e.note, e.label.is_empty()) {
        (_, true) => None,
        (None, false) => Some(Label::Text(&e.label)),
        (Some(note), false) => Some(Label::Html(
            Html::default()
                .text(&e.label)
                .br()
                .small(note, color::SLATE),
        )),
    };
    let (style, line) = match e.kind {
        EdgeKind::Reject => (Some(EdgeStyle::Dashed), color::GATE),
        EdgeKind::Approve => (None, color::GATE),
        EdgeKind::Start | EdgeKind::Transition => (None, color::SLATE),
    };
    EdgeAttrs {
        label,
        style,
        color: Some(if e.success_path { color::INK } else { line }),
        fontcolor: None,
        penwidth: e.success_path.then_some("2.2"),
        tooltip: e.tooltip.as_deref(),
    }
}

/// About how many bytes a node's and an edge's statement take beside their text.
const NODE_SYNTAX: usize = 300;
const EDGE_SYNTAX: usize = 100;

fn graph(d: &Drawing, with_legend: bool, out: &mut Output) {
    out.push_str("digraph loop {\n");
    let mut title = Html::default().bold(&d.title);
    if let Some(s) = &d.subtitle {
        title = title.br().small(s, color::SLATE);
    }
    out.push_str("  graph");
    let mut gattrs = vec![
        ("rankdir", AttrValue::Bare("TB")),
        ("label", AttrValue::Html(&title)),
        ("labelloc", AttrValue::Bare("t")),
        ("fontname", AttrValue::Quoted(FONT)),
        ("fontsize", AttrValue::Bare("16")),
        ("fontcolor", AttrValue::Quoted(color::INK)),
        ("nodesep", AttrValue::Bare("0.45")),
        ("ranksep", AttrValue::Bare("0.5")),
        ("pad", AttrValue::Bare("0.3")),
        ("bgcolor", AttrValue::Quoted("white")),
    ];
    if let Some(desc) = &d.description {
        gattrs.push(("tooltip", AttrValue::Quoted(desc)));
    }
    write_attrs(out, &gattrs);
    out.push_str(";\n  node");
    let node_font = [
        ("fontname", AttrValue::Quoted(FONT)),
        ("fontsize", AttrValue::Bare("11")),
        ("margin", AttrValue::Quoted("0.18,0.08")),
    ];
    write_attrs(
        out,
        node_font
            .iter()
            .chain(NODE_DEFAULTS.pairs().iter().flatten()),
    );
    out.push_str(";\n  edge");
    let edge_font = [
        ("fontname", AttrValue::Quoted(FONT)),
        ("fontsize", AttrValue::Bare("10")),
        ("fontcolor", AttrValue::Quoted(color::SLATE)),
        ("arrowsize", AttrValue::Bare("0.8")),
    ];
    write_attrs(
        out,
        edge_font
            .iter()
            .chain(EDGE_DEFAULTS.pairs().iter().flatten()),
    );
    out.push_str(";\n");

    if d.start.is_some() {
        let _ = write!(out, "  {START_ID}");
        write_attrs(
            out,
            start_attrs()
                .beside(&NODE_DEFAULTS)
                .pairs()
                .iter()
                .flatten(),
        );
        out.push_str(";\n");
    }
    d.write_nodes(out, NODE_SYNTAX, node_statement);
    d.write_edges(out, EDGE_SYNTAX, edge_statement);
    if with_legend {
        legend(out);
    }
    out.push_str("}\n");
}

/// The start marker: a dot in the ink colour (what Graphviz draws for a point by itself,
/// written out because the node defaults are a phase's).
fn start_attrs() -> NodeAttrs<'static> {
    NodeAttrs {
        shape: Some(Shape::Point),
        style: Some(NodeStyle::Filled),
        color: Some(color::INK),
        fillcolor: Some(color::INK),
        fontcolor: Some(color::INK),
        penwidth: Some("1"),
        width: Some("0.18"),
        tooltip: Some("start"),
        ..NodeAttrs::default()
    }
}

/// `  p0 [label=<...>, ...];`
fn node_statement(n: &DiagramNode, out: &mut String) {
    out.push_str("  ");
    n.id.push_to(out);
    let attrs = node_attrs(n).beside(&NODE_DEFAULTS);
    write_attrs(out, attrs.pairs().iter().flatten());
    out.push_str(";\n");
}

/// `  p0 -> p1 [label="done", ...];`
fn edge_statement(e: &DiagramEdge, out: &mut String) {
    out.push_str("  ");
    e.from.push_to(out);
    out.push_str(" -> ");
    e.to.push_to(out);
    let attrs = edge_attrs(e).beside(&EDGE_DEFAULTS);
    write_attrs(out, attrs.pairs().iter().flatten());
    out.push_str(";\n");
}

/// A small legend cluster: one sample of each node kind.
fn legend(out: &mut String) {
    out.push_str("  subgraph cluster_legend {\n");
    out.push_str("    graph [label=\"legend\", fontsize=10, style=\"rounded,dashed\", color=\"#cbd5e1\", fontcolor=\"#64748b\"];\n");
    let samples: [(&str, DiagramNode); 5] = [
        (
            "legend_phase",
            sample(NodeKind::Phase, "phase", "objective"),
        ),
        (
            "legend_gate",
            sample(NodeKind::Gate, "approval", "checkpoint id"),
        ),
        (
            "legend_end",
            sample(NodeKind::Terminal(Terminal::End), "$end", "success"),
        ),
        (
            "legend_abort",
            sample(NodeKind::Terminal(Terminal::Abort), "$abort", "failure"),
        ),
        (
            "legend_handoff",
            sample(
                NodeKind::Terminal(Terminal::Handoff),
                "$handoff",
                "hand-off",
            ),
        ),
    ];
    for (id, n) in &samples {
        let mut a = node_attrs(n).beside(&NODE_DEFAULTS);
        a.tooltip = None;
        let _ = write!(out, "    {id}");
        write_attrs(out, a.pairs().iter().flatten());
        out.push_str(";\n");
    }
    out.push_str("    legend_phase -> legend_gate -> legend_end -> legend_abort -> legend_handoff [style=invis];\n  }\n");
}

fn sample(kind: NodeKind, title: &'static str, line: &'static str) -> DiagramNode<'static> {
    DiagramNode {
        id: NodeId::Start,
        kind,
        title: title.into(),
        lines: if line.is_empty() {
            Vec::new()
        } else {
            vec![line.into()]
        },
        access: None,
        role: None,
        binding: None,
        tooltip: "".into(),
        entry: false,
        reachable: true,
        trap: false,
    }
}

#[cfg(test)]
mod tests {
    use super::{
        Html, NODE_DEFAULTS, NodeAttrs, NodeStyle, color, draw, html_text, node_attrs, quote,
        sample, start_attrs,
    };
    use crate::back::support::diagram::{DiagramNode, NodeKind};
    use crate::ir::Terminal;
    use crate::pipeline::{LoadOptions, load};

    #[test]
    fn quote_escapes_backslash_and_quote() {
        assert_eq!(quote(r#"a "b" \N c"#), r#""a \"b\" \\N c""#);
        assert_eq!(quote("x\ny"), r#""x\ny""#);
        assert_eq!(quote("日本語 🚀"), "\"日本語 🚀\"");
        assert_eq!(
            quote("&#60;b&#62; &amp;"),
            "\"&amp;#60;b&amp;#62; &amp;amp;\""
        );
    }

    proptest::proptest! {
        #[test]
        fn quote_round_trips(s in "\\PC*|[\"\\\\\n\t a-z<>&\u{80}\u{85}\u{9f}\u{a0}é©日]*") {
            let q = quote(&s);
            proptest::prop_assert!(q.starts_with('"') && q.ends_with('"') && q.len() >= 2);
            let mut back = String::new();
            let mut esc = false;
            for c in q[1..q.len() - 1].chars() {
                match (esc, c) {
                    (true, 'n') => { back.push('\n'); esc = false; }
                    (true, c) => { back.push(c); esc = false; }
                    (false, '\\') => esc = true,
                    (false, '"') => proptest::prop_assert!(false, "bare quote in {}", q),
                    (false, c) => back.push(c),
                }
            }
            // Graphviz then decodes entities: `&amp;` is the only one written.
            let back = back.replace("&amp;", "&");
            let expected: String = s
                .chars()
                .map(|c| if c.is_control() && c != '\n' { ' ' } else { c })
                .collect();
            proptest::prop_assert_eq!(back, expected);
        }
    }

    #[test]
    fn html_text_doubles_backslashes() {
        assert_eq!(html_text(r"C:\new \N \\"), r"C:\\new \\N \\\\");
    }

    #[test]
    fn html_text_is_escaped() {
        let h = Html::default()
            .bold("<b>")
            .br()
            .text("<img src=x onerror=alert(1)> & \"q\"");
        assert_eq!(
            h.0,
            "<B>&lt;b&gt;</B><BR/>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot;"
        );
        assert_eq!(
            html_text("<img src=x onerror=\"a\">&amp;'"),
            "&lt;img src=x onerror=&quot;a&quot;&gt;&amp;amp;&#39;"
        );
    }

    fn render(src: &str) -> String {
        let l = load("x.yaml", src.as_bytes(), &LoadOptions::default());
        let Some((spec, info)) = l.valid() else {
            panic!("invalid test loop: {:?}", l.diags);
        };
        draw(spec, info, false)
    }

    const HOSTILE_MAS: &str = r##"
name: hostile
type: VEAL
description: "\"quotes\" <script>alert(1)</script> back\\slash"
validator: "qa <img src=x onerror=alert(1)>"
actor: "fixer \" ] ; } -> x"
success_criteria: "# hash %% comment --> arrow | pipe"
checks:
  - id: build
    type: command
    command: "echo \"<b>bold</b>\" \\ \n multi"
"##;

    /// The text outside quoted strings (HTML labels, ids, keywords), and whether every
    /// quoted string is closed on its line.
    fn outside_quotes(out: &str) -> String {
        let mut kept = String::new();
        for line in out.lines() {
            let (mut quoted, mut esc) = (false, false);
            for c in line.chars() {
                match (quoted, esc, c) {
                    (true, true, _) => esc = false,
                    (true, false, '\\') => esc = true,
                    (_, false, '"') => quoted = !quoted,
                    (false, _, c) => kept.push(c),
                    _ => {}
                }
            }
            assert!(!quoted, "unclosed string: {line}");
            kept.push('\n');
        }
        kept
    }

    #[test]
    fn hostile_text_stays_text() {
        let out = render(HOSTILE_MAS);
        // Markup only in HTML labels, and there all user text is escaped.
        let markup = outside_quotes(&out);
        for bad in ["<img", "<script", "<b>"] {
            assert!(!markup.contains(bad), "{bad}: {out}");
        }
        assert!(out.contains("&lt;img src=x onerror=alert(1)&gt;"), "{out}");
        assert!(out.contains("escalation: human"), "{out}");
        assert!(out.contains("validator: qa &lt;img"), "{out}");
        // Quoted strings escape backslashes and quotes.
        assert!(
            out.contains(r#"tooltip="\"quotes\" <script>alert(1)</script> back\\slash""#),
            "{out}"
        );
    }

    #[test]
    fn legend_is_an_optional_cluster() {
        let l = load("x.yaml", HOSTILE_MAS.as_bytes(), &LoadOptions::default());
        let Some((spec, info)) = l.valid() else {
            panic!("invalid test loop");
        };
        let plain = draw(spec, info, false);
        assert!(!plain.contains("cluster_legend"));
        let with = draw(spec, info, true);
        assert!(with.contains("  subgraph cluster_legend {\n"), "{with}");
        assert!(
            with.contains("legend_abort [label=<<B>$abort</B>"),
            "{with}"
        );
        assert!(with.ends_with("  }\n}\n"), "{with}");
    }

    /// Every node, of every kind and state, names each attribute the node defaults set, so
    /// that none is drawn with a phase's shape or colours by omission (a new kind that
    /// forgets one fails here).
    #[test]
    fn every_node_names_each_defaulted_attribute() {
        let defaulted = |a: &NodeAttrs| {
            [
                a.shape.is_some(),
                a.style.is_some(),
                a.color.is_some(),
                a.fillcolor.is_some(),
                a.fontcolor.is_some(),
                a.penwidth.is_some(),
            ]
        };
        let kinds = [NodeKind::Phase, NodeKind::Gate]
            .into_iter()
            .chain(Terminal::ALL.map(NodeKind::Terminal));
        assert_eq!(defaulted(&NODE_DEFAULTS), [true; 6]);
        assert_eq!(defaulted(&start_attrs()), [true; 6]);
        let states = [
            (true, false, false),
            (false, false, false),
            (true, true, false),
            (true, false, true),
        ];
        for kind in kinds {
            for (reachable, trap, entry) in states {
                let n = DiagramNode {
                    reachable,
                    trap,
                    entry,
                    ..sample(kind, "t", "l")
                };
                let a = node_attrs(&n);
                assert_eq!(defaulted(&a), [true; 6], "{a:?}");
            }
        }
        // An unreachable phase differs from the defaults, so its statement says so.
        let unreachable = DiagramNode {
            reachable: false,
            ..sample(NodeKind::Phase, "t", "l")
        };
        let grey = node_attrs(&unreachable).beside(&NODE_DEFAULTS);
        assert_eq!(grey.fillcolor, Some(color::GREY_FILL));
        assert_eq!(grey.style, Some(NodeStyle::RoundedDashed));
        assert_eq!(grey.shape, None);
    }

    #[test]
    fn deterministic_with_generated_ids() {
        let a = render(HOSTILE_MAS);
        assert_eq!(a, render(HOSTILE_MAS));
        assert!(a.starts_with("digraph loop {\n"));
        assert!(a.contains("\n  p0 [label=<<B>validate</B>"), "{a}");
        assert!(a.contains("\n  t_end [label=<<B>$end</B>"), "{a}");
        assert!(a.contains("shape=doublecircle"), "{a}");
        assert!(a.contains("\n  start -> p0 ["), "{a}");
        assert!(a.ends_with("}\n"));
    }
}
