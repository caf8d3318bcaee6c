//! Where the values of a [`Spec`](super::Spec) came from in the file it was read from.
//!
//! The front end that reads a file records this once: an [`Origin`] on every element
//! (phase, outcome, transition, checkpoint, check, port) and a [`Provenance`] for the
//! loop-level fields. Diagnostics and loss reports read them; nothing rebuilds a pointer.

use std::sync::Arc;

use super::Format;

/// The JSON Pointer of an element in the file it was read from. Never serialised; two
/// origins always compare equal, so provenance never changes the meaning of a loop.
///
/// Compact: the pointer of the list an element is in (shared by every element of the
/// list) and the element's index, so that the tens of thousands of elements of a large
/// loop do not each allocate their pointer; the pointer is written out only for a
/// diagnostic ([`Origin::pointer`], [`Origin::pointer_to`]).
#[derive(Debug, Clone, Default)]
pub struct Origin {
    /// The pointer of the enclosing list or object (`None`: the document itself).
    base: Option<Arc<str>>,
    /// The index in that list, for an element of one.
    index: Option<usize>,
}

impl Origin {
    /// An origin at `pointer`.
    pub fn new(pointer: impl Into<String>) -> Self {
        let pointer: String = pointer.into();
        Origin {
            base: (!pointer.is_empty()).then(|| pointer.into()),
            index: None,
        }
    }

    /// The origin of the member `key` of this object (`self/key`, escaped).
    pub fn child(&self, key: &str) -> Origin {
        Origin::new(self.pointer_to(key))
    }

    /// The origin of the item at `index` of this list (`self/index`): no allocation.
    pub fn item(&self, index: usize) -> Origin {
        match self.index {
            None => Origin {
                base: self.base.clone(),
                index: Some(index),
            },
            Some(_) => Origin {
                base: Some(self.pointer().into()),
                index: Some(index),
            },
        }
    }

    /// The JSON Pointer.
    pub fn pointer(&self) -> String {
        use std::fmt::Write as _;
        let mut s = String::with_capacity(self.base.as_deref().map_or(0, str::len) + 8);
        s.push_str(self.base.as_deref().unwrap_or(""));
        if let Some(i) = self.index {
            let _ = write!(s, "/{i}");
        }
        s
    }

    /// The JSON Pointer of the member `key` of this object (`self/key`, escaped).
    pub fn pointer_to(&self, key: &str) -> String {
        let mut s = self.pointer();
        s.push('/');
        if key.contains(['~', '/']) {
            s.push_str(&crate::tree::escape_ptr(key));
        } else {
            s.push_str(key);
        }
        s
    }
}

/// A loop-level field of the IR.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    /// The loop name.
    Name,
    /// The description.
    Description,
    /// The package version.
    Version,
    /// The `$schema` URI.
    SchemaUri,
    /// The README path.
    Readme,
    /// The license.
    License,
    /// The environment block.
    Environment,
    /// The loop type / pattern.
    Pattern,
    /// `archetype`.
    Archetype,
    /// The entry phase.
    Entry,
    /// The phases.
    Phases,
    /// The transitions.
    Transitions,
    /// The approval checkpoints.
    Checkpoints,
    /// `max_steps`.
    MaxSteps,
    /// The error policy.
    ErrorPolicy,
    /// The error policy's tool-failure rule.
    ToolFailure,
    /// MAS actor.
    Actor,
    /// MAS validator.
    Validator,
    /// MAS fallback agent.
    FallbackAgent,
    /// MAS mission.
    Mission,
    /// MAS success criteria.
    SuccessCriteria,
    /// MAS checks.
    Checks,
    /// MAS inputs.
    Inputs,
    /// MAS outputs.
    Outputs,
    /// MAS escalation.
    Escalation,
    /// MAS max attempts.
    MaxAttempts,
}

/// Where a loop's fields are in the file it was read from: the format it was read as and
/// the pointer of each loop-level field there. Recorded by the front end; never compared
/// (see [`super::same_content`]).
#[derive(Clone, Copy)]
pub struct Provenance {
    /// The format the file was read as (`Spec::source_format` is the format the loop was
    /// first written in).
    pub read_as: Format,
    pointer: fn(Field) -> &'static str,
}

impl Provenance {
    /// Provenance of a file read as `read_as`, whose fields are at `pointer(field)`.
    pub fn new(read_as: Format, pointer: fn(Field) -> &'static str) -> Self {
        Provenance { read_as, pointer }
    }

    /// The JSON Pointer of a loop-level field in the source (the closest enclosing
    /// element when the format has no such field).
    pub fn pointer(&self, field: Field) -> String {
        (self.pointer)(field).to_owned()
    }
}

impl Default for Provenance {
    /// A loop built in memory is described by the IR's own structure.
    fn default() -> Self {
        Provenance::new(Format::Ir, ir_pointer)
    }
}

impl std::fmt::Debug for Provenance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Provenance")
            .field("read_as", &self.read_as)
            .finish_non_exhaustive()
    }
}

/// Where each loop-level field is in the IR's JSON form.
pub fn ir_pointer(field: Field) -> &'static str {
    match field {
        Field::Name => "/name",
        Field::Description => "/description",
        Field::Version => "/version",
        Field::SchemaUri => "/schema_uri",
        Field::Readme => "/readme",
        Field::License => "/license",
        Field::Environment => "/environment",
        Field::Pattern => "/pattern",
        Field::Archetype => "/archetype",
        Field::Entry => "/graph/entry",
        Field::Phases => "/graph/phases",
        Field::Transitions => "/graph/transitions",
        Field::Checkpoints => "/graph/checkpoints",
        Field::MaxSteps => "/bounds/max_steps",
        Field::ErrorPolicy => "/bounds/error_policy",
        Field::ToolFailure => "/bounds/error_policy/tool_failure",
        Field::Actor => "/roles/actor",
        Field::Validator => "/roles/validator",
        Field::FallbackAgent => "/roles/fallback_agent",
        Field::Mission => "/goal/mission",
        Field::SuccessCriteria => "/goal/success_criteria",
        Field::Checks => "/goal/checks",
        Field::Inputs => "/goal/inputs",
        Field::Outputs => "/goal/outputs",
        Field::Escalation => "/bounds/escalation",
        Field::MaxAttempts => "/bounds/max_attempts",
    }
}
