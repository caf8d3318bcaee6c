//! The authoring analyses: `diff`, `paths` and `walk`.

mod diff;
mod hostile;
mod paths;
mod walk;
