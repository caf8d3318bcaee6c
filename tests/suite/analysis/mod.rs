//! The authoring analyses: `diff`, `paths` and `walk`.

mod diff;
mod paths;
mod walk;
