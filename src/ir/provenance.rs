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
/// diagnostic ([`Origin::pointer`], [`Origin::pointer_to`]). Elements under keys (the
/// states of an XState machine) share one text of all their pointers ([`Pointers`]).
#[derive(Clone, Default)]
pub struct Origin {
    /// The text holding the pointer of the enclosing list or object (`None`: the
    /// document itself).
    base: Option<Arc<str>>,
    /// Where in `base` that pointer is ([`WHOLE`]: all of it).
    at: (u32, u32),
    /// The index in that list, for an element of one (saturated: no list of a readable
    /// input has 2^32 items).
    index: Option<u32>,
}

/// The pointer, not the text it is in (which a shared origin shares with thousands of
/// others).
impl std::fmt::Debug for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Origin").field(&self.pointer()).finish()
    }
}

/// [`Origin::at`] for a pointer that is all of its text.
const WHOLE: (u32, u32) = (0, u32::MAX);

impl Origin {
    /// An origin at `pointer`.
    pub fn new(pointer: impl Into<String>) -> Self {
        let pointer: String = pointer.into();
        Origin {
            base: (!pointer.is_empty()).then(|| pointer.into()),
            at: WHOLE,
            index: None,
        }
    }

    /// The origin of the member `key` of this object (`self/key`, escaped).
    pub fn child(&self, key: &str) -> Origin {
        Origin::new(self.pointer_to(key))
    }

    /// The origin of the item at `index` of this list (`self/index`): no allocation.
    pub fn item(&self, index: usize) -> Origin {
        let index = Some(u32::try_from(index).unwrap_or(u32::MAX));
        match self.index {
            None => Origin {
                index,
                ..self.clone()
            },
            Some(_) => Origin {
                base: Some(self.pointer().into()),
                at: WHOLE,
                index,
            },
        }
    }

    /// The pointer of the enclosing list or object.
    fn base(&self) -> &str {
        let base = self.base.as_deref().unwrap_or("");
        match self.at {
            WHOLE => base,
            (start, end) => base.get(start as usize..end as usize).unwrap_or(base),
        }
    }

    /// The JSON Pointer.
    pub fn pointer(&self) -> String {
        let base = self.base();
        let mut s = String::with_capacity(base.len() + 8);
        s.push_str(base);
        if let Some(i) = self.index {
            s.push('/');
            crate::text::push_decimal(&mut s, i as usize);
        }
        s
    }

    /// The JSON Pointer of the member `key` of this object (`self/key`, escaped).
    pub fn pointer_to(&self, key: &str) -> String {
        let mut s = self.pointer();
        push_key(&mut s, key);
        s
    }
}

/// Append `/key`, escaped.
fn push_key(s: &mut String, key: &str) {
    crate::pointer::push(s, key);
}

/// The pointers of many elements under keys, written into one text, so that their
/// origins share it: one allocation for all the states and events of a machine instead
/// of one each (those were a tenth of the allocations of reading a 10,000-phase
/// machine).
#[derive(Debug, Default)]
pub struct Pointers {
    text: String,
}

/// Where [`Pointers::add`] wrote a pointer.
#[derive(Debug, Clone, Copy)]
pub struct PointerAt(usize, usize);

impl Pointers {
    /// Write the pointer `under/keys[0]/keys[1]...` (each key escaped).
    pub fn add(&mut self, under: &str, keys: &[&str]) -> PointerAt {
        let start = self.text.len();
        self.text.push_str(under);
        for key in keys {
            push_key(&mut self.text, key);
        }
        PointerAt(start, self.text.len())
    }

    /// The text, shared by the origins made from it.
    pub fn share(self) -> SharedPointers {
        SharedPointers(self.text.into())
    }
}

/// The text of [`Pointers`], once written.
#[derive(Debug)]
pub struct SharedPointers(Arc<str>);

impl SharedPointers {
    /// The origin at the pointer written at `at` (its own copy, in a text of more than
    /// 4 GiB).
    pub fn origin(&self, at: PointerAt) -> Origin {
        let PointerAt(start, end) = at;
        match (u32::try_from(start), u32::try_from(end)) {
            (Ok(start), Ok(end)) if (start, end) != WHOLE => Origin {
                base: Some(self.0.clone()),
                at: (start, end),
                index: None,
            },
            _ => Origin::new(self.0.get(start..end).unwrap_or_default()),
        }
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

impl Field {
    /// Every field, in declaration order.
    pub const ALL: [Field; 26] = [
        Field::Name,
        Field::Description,
        Field::Version,
        Field::SchemaUri,
        Field::Readme,
        Field::License,
        Field::Environment,
        Field::Pattern,
        Field::Archetype,
        Field::Entry,
        Field::Phases,
        Field::Transitions,
        Field::Checkpoints,
        Field::MaxSteps,
        Field::ErrorPolicy,
        Field::ToolFailure,
        Field::Actor,
        Field::Validator,
        Field::FallbackAgent,
        Field::Mission,
        Field::SuccessCriteria,
        Field::Checks,
        Field::Inputs,
        Field::Outputs,
        Field::Escalation,
        Field::MaxAttempts,
    ];
}

// `ALL` names every field: the last one's index is its length less one.
const _: () = assert!(Field::MaxAttempts as usize + 1 == Field::ALL.len());

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

#[cfg(test)]
mod tests {

    use crate::ir::{Origin, Pointers};
    proptest::proptest! {
        /// An origin made from a shared text has the pointer, and its items the pointers,
        /// of one made key by key, whatever the keys (`~` and `/` escaped).
        #[test]
        fn shared_origins_are_the_pointers_made_key_by_key(
            keys in proptest::collection::vec(("[a-z~/]{0,4}", "[A-Z~/]{0,3}"), 0..6),
            index in 0usize..3,
        ) {
            let mut pointers = Pointers::default();
            let places: Vec<_> = keys
                .iter()
                .flat_map(|(state, event)| {
                    [
                        pointers.add("/states", &[state]),
                        pointers.add("/states", &[state, "on", event]),
                    ]
                })
                .collect();
            let shared = pointers.share();
            let mut places = places.into_iter();
            for (state, event) in &keys {
                let by_key = Origin::new("/states").child(state);
                let origin = shared.origin(places.next().unwrap());
                proptest::prop_assert_eq!(origin.pointer(), by_key.pointer());
                proptest::prop_assert_eq!(origin.item(index).pointer(), by_key.item(index).pointer());
                proptest::prop_assert_eq!(format!("{origin:?}"), format!("{by_key:?}"));
                let by_key = by_key.child("on").child(event);
                let origin = shared.origin(places.next().unwrap());
                proptest::prop_assert_eq!(origin.pointer_to("target"), by_key.pointer_to("target"));
            }
        }
    }
}
