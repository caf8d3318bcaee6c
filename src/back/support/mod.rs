//! What the back ends share and that is not a target itself: the diagram model that the
//! Mermaid, DOT and PlantUML writers draw from ([`diagram`]) and the parallel, in-order
//! writing of large outputs ([`chunks`]).

pub mod chunks;
pub mod diagram;
