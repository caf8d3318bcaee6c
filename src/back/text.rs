//! Shared text helpers for the text back ends.
