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

/// The format a document claims to be, trying each in [`Format::ALL`] order.
pub fn claimed_format(root: &Node) -> Option<Format> {
    Format::ALL.into_iter().find(|&f| claims(f, root))
}

/// Read a located document as `format`: shape check, format warnings, lowering into the
/// IR. `None` when the loop could not be built (the reasons are in `diags`). The tree is
/// freed once the model is built unless `tree` keeps it.
pub fn read_format(
    format: Format,
    doc: &mut Document,
    limits: &ReadLimits,
    tree: TreeUse,
    diags: &mut Diagnostics,
) -> Option<Spec> {
    match format {
        Format::Agentpm => front::agentpm::read(doc, limits, tree, diags),
        Format::Mas => front::mas::read(doc, limits, tree, diags),
        Format::Ir => front::ir::read(doc, limits, tree, diags),
        Format::Xstate => front::xstate::read(doc, limits, tree, diags),
    }
}
