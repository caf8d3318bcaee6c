//! Serde types that mirror each file format exactly.
//!
//! They are used both to read (after the structural check of `valid::shape`) and to write,
//! so JSON and YAML are always produced through serde, never through templates. Every
//! constraint of the format is written here as a schemars attribute, and the JSON Schemas
//! that loopconv publishes (`loopconv schema`) and checks input against are generated from
//! these types ([`schema`]): one source of truth.

pub mod agentpm;
pub mod ir;
pub mod mas;
pub mod schema;
