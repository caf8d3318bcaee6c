//! The pipeline: the one module above the front and back ends that dispatches on the
//! [`Format`] and [`crate::Target`] tags.
//!
//! ```text
//!  bytes ─ tree (P) ─ front::X (shape F, lowering) ─▶ ir::Spec ─ valid (V) ─▶ Info
//!                                                        │                     │
//!                                   back::render(Target) ◀┴─────────────────────┘ (B)
//!                                         │
//!               loop formats: read back ─ ┘ (B004)
//! ```
//!
//! [`load`] reads a file (`read`: decode, syntax, detection, the format's front end,
//! validation); [`write`](fn@write) runs a back end and reads a loop-format output back through
//! [`load`], so a conversion never hands out a file that loopconv itself would reject.
//! Nothing below this module imports it.

mod drive;
mod read;
mod write;

pub use read::{LoadOptions, Loaded, load, load_owned, load_string};
pub use write::write;

use crate::diag::Diagnostics;
use crate::format::Format;
use crate::front::{self, TreeUse};
use crate::ir::Spec;
use crate::tree::{Document, Node, ReadLimits};

/// Whether a document looks like `format` (detection by content).
pub fn claims(format: Format, root: &Node) -> bool {
    match format {
        Format::Agentpm => front::agentpm::claims(root),
        Format::Mas => front::mas::claims(root),
        Format::Ir => front::ir::claims(root),
        Format::Xstate => front::xstate::claims(root),
    }
}

/// Where a document declares its phases, for a tool that indexes the document itself (the
/// language server), so that it asks the pipeline instead of matching a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhaseLayout {
    /// Lists of phase objects with an `id` each (AgentPM, multi-agent-spec).
    Lists,
    /// The same lists under the IR's `graph`: a document that looks like the IR, whichever
    /// format read it.
    IrGraph,
    /// Each state a key of `states` (XState).
    StateKeys,
}

/// The [`PhaseLayout`] of a document read as `format` (`None`: no format claimed it).
pub fn phase_layout(format: Option<Format>, root: &Node) -> PhaseLayout {
    match format {
        Some(Format::Xstate) => PhaseLayout::StateKeys,
        Some(Format::Agentpm | Format::Mas | Format::Ir) | None => {
            if claims(Format::Ir, root) {
                PhaseLayout::IrGraph
            } else {
                PhaseLayout::Lists
            }
        }
    }
}

/// The pointer to the id of the `k`th phase a loop of `format` lists (a list under
/// `loop.phases` in AgentPM, `phases` in multi-agent-spec, `graph.phases` in the IR), for a
/// tool that points into the document (the language server's links), so that it asks the
/// pipeline instead of matching a format; `None` where a phase is a key (XState).
pub fn phase_id_pointer(format: Format, k: usize) -> Option<String> {
    match format {
        Format::Agentpm => Some(format!("/loop/phases/{k}/id")),
        Format::Mas => Some(format!("/phases/{k}/id")),
        Format::Ir => Some(format!("/graph/phases/{k}/id")),
        Format::Xstate => None,
    }
}

/// The format a document claims to be, trying each in [`Format::ALL`] order.
pub fn claimed_format(root: &Node) -> Option<Format> {
    Format::ALL.into_iter().find(|&f| claims(f, root))
}

/// Read a located document as `format`: shape check, format warnings, lowering into the
/// IR. `None` when the loop could not be built (the reasons are in `diags`). The tree is
/// freed once the model is built unless `tree` keeps it. Losses are one error
/// ([`read_format_allowing`] with `false`).
pub fn read_format(
    format: Format,
    doc: &mut Document,
    limits: &ReadLimits,
    tree: TreeUse,
    diags: &mut Diagnostics,
) -> Option<Spec> {
    read_format_allowing(format, doc, limits, tree, false, diags)
}

/// [`read_format`]; with `lossy`, what a loop can do without (an XState machine's names
/// that are no ids, guards, actions, ...) is dropped, each loss a warning
/// ([`LoadOptions::allow_lossy`]).
pub fn read_format_allowing(
    format: Format,
    doc: &mut Document,
    limits: &ReadLimits,
    tree: TreeUse,
    lossy: bool,
    diags: &mut Diagnostics,
) -> Option<Spec> {
    use front::{agentpm, ir, mas, xstate};
    match format {
        Format::Agentpm => drive::read(&agentpm::FRONT_END, doc, limits, tree, lossy, diags),
        Format::Mas => drive::read(&mas::FRONT_END, doc, limits, tree, lossy, diags),
        Format::Ir => drive::read(&ir::FRONT_END, doc, limits, tree, lossy, diags),
        Format::Xstate => drive::read(&xstate::FRONT_END, doc, limits, tree, lossy, diags),
    }
}
