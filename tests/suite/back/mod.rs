//! The back ends: each target's own tests (`agentpm`, `mas`, `ir`, `mermaid`, `dot`,
//! `plantuml`, `markdown`, `schema`; `xstate_real` runs the XState machines with the real
//! libraries), and the tests that run every back end: golden outputs
//! of the examples, determinism and generated loops.

mod agentpm;
mod continue_label;
mod determinism;
mod dot;
mod examples;
mod ir;
mod langgraph;
mod loss_report;
mod markdown;
mod mas;
mod mermaid;
mod plantuml;
pub(crate) mod properties;
mod roundtrip;
mod schema;
mod xstate;
mod xstate_real;
