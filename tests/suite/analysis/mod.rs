//! The authoring analyses: `diff`, `paths` and `walk`.

mod diff;
mod hostile;
pub(crate) mod paths;
mod walk;
