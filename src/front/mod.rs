//! Front ends: lower a format's model into the IR. They never judge validity (that is
//! `valid`'s job); they only record where each element came from.

pub mod agentpm;
pub mod mas;
