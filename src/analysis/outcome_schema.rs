//! The per-loop outcome schema: a JSON Schema (draft 2020-12) of the structured result a
//! runtime expects from each phase of one loop: `{"phase": ID, "outcome": O}` with `O`
//! one of that phase's outcomes, each with its description. Runtimes hand it to a model
//! to constrain its output; other keys (a summary, evidence) are allowed.
//!
//! The schema borrows the loop's text and is serialised straight to the output: built as a
//! `serde_json::Value`, the schema of a 10,000-phase loop held 18 times the file.

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};

use crate::ir::{IMPLICIT_OUTCOME, IdSet, Phase, Spec};

/// The schema of the results of every phase of a loop (each id's first declaration, in
/// declaration order), ready to serialise.
#[derive(Debug, Serialize)]
pub struct OutcomeSchema<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    title: String,
    description: &'static str,
    #[serde(rename = "type")]
    kind: &'static str,
    required: [&'static str; 2],
    properties: TopProperties<'a>,
    #[serde(rename = "oneOf")]
    one_of: Refs<'a>,
    #[serde(rename = "$defs")]
    defs: Defs<'a>,
}

#[derive(Debug, Serialize)]
struct TopProperties<'a> {
    phase: Described<PhaseIds<'a>>,
    outcome: Described<TypeString>,
}

#[derive(Debug, Serialize)]
struct Described<T> {
    description: &'static str,
    #[serde(flatten)]
    rule: T,
}

#[derive(Debug, Serialize)]
struct TypeString {
    #[serde(rename = "type")]
    kind: &'static str,
}

/// `"enum": [ids]`.
#[derive(Debug)]
struct PhaseIds<'a>(&'a [&'a Phase]);

impl Serialize for PhaseIds<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry("enum", &Ids(self.0))?;
        m.end()
    }
}

#[derive(Debug)]
struct Ids<'a>(&'a [&'a Phase]);

impl Serialize for Ids<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|p| p.id.as_str()))
    }
}

/// `[{"$ref": "#/$defs/ID"}, ...]`.
#[derive(Debug)]
struct Refs<'a>(&'a [&'a Phase]);

impl Serialize for Refs<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for p in self.0 {
            seq.serialize_element(&Ref(&p.id))?;
        }
        seq.end()
    }
}

#[derive(Debug)]
struct Ref<'a>(&'a str);

impl Serialize for Ref<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry("$ref", &format_args!("#/$defs/{}", self.0))?;
        m.end()
    }
}

/// `{"ID": result of the phase, ...}`.
#[derive(Debug)]
struct Defs<'a>(&'a [&'a Phase]);

impl Serialize for Defs<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for p in self.0 {
            m.serialize_entry(&p.id, &PhaseResult(p))?;
        }
        m.end()
    }
}

/// The result of one phase.
#[derive(Debug)]
struct PhaseResult<'a>(&'a Phase);

impl Serialize for PhaseResult<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let p = self.0;
        let mut m = s.serialize_map(Some(5))?;
        m.serialize_entry("title", &format_args!("Result of phase `{}`", p.id))?;
        m.serialize_entry("description", &p.objective)?;
        m.serialize_entry("type", "object")?;
        m.serialize_entry("required", &["phase", "outcome"])?;
        m.serialize_entry("properties", &PhaseProperties(p))?;
        m.end()
    }
}

#[derive(Debug)]
struct PhaseProperties<'a>(&'a Phase);

impl Serialize for PhaseProperties<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("phase", &Const(&self.0.id, None))?;
        m.serialize_entry("outcome", &OneOfOutcomes(self.0))?;
        m.end()
    }
}

/// `{"const": value}`, with a description when there is one.
#[derive(Debug)]
struct Const<'a>(&'a str, Option<&'a str>);

impl Serialize for Const<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1 + usize::from(self.1.is_some())))?;
        m.serialize_entry("const", self.0)?;
        if let Some(d) = self.1 {
            m.serialize_entry("description", d)?;
        }
        m.end()
    }
}

/// `{"oneOf": [{"const": outcome, "description": ...}, ...]}`.
#[derive(Debug)]
struct OneOfOutcomes<'a>(&'a Phase);

impl Serialize for OneOfOutcomes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        const IMPLICIT: Const<'static> = Const(
            IMPLICIT_OUTCOME,
            Some("The phase finished (the implicit outcome of a phase that declares none)."),
        );
        let mut m = s.serialize_map(Some(1))?;
        match &self.0.outcomes {
            Some(os) => m.serialize_entry(
                "oneOf",
                &Seq(os.iter().map(|o| Const(&o.id, Some(&o.description)))),
            )?,
            None => m.serialize_entry("oneOf", &[IMPLICIT])?,
        }
        m.end()
    }
}

/// A list serialised from an iterator that can be cloned.
#[derive(Debug)]
struct Seq<I>(I);

impl<I: Iterator<Item = T> + Clone, T: Serialize> Serialize for Seq<I> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.clone())
    }
}

/// The first declaration of each phase id, in declaration order.
pub fn first_declarations(spec: &Spec) -> Vec<&Phase> {
    let mut seen = IdSet::with_capacity_and_hasher(spec.graph.phases.len(), Default::default());
    spec.graph
        .phases
        .iter()
        .filter(|p| seen.insert(p.id.as_str()))
        .collect()
}

/// The schema of the results of the phases `phases` (from [`first_declarations`]) of
/// `spec`.
pub fn outcome_schema<'a>(spec: &Spec, phases: &'a [&'a Phase]) -> OutcomeSchema<'a> {
    OutcomeSchema {
        schema: "https://json-schema.org/draft/2020-12/schema",
        title: format!("Phase results of the loop `{}`", spec.name),
        description: "The structured result a runtime expects from a phase: the phase id and one of that phase's outcomes. Generated by `loopconv schema FILE --outcomes`.",
        kind: "object",
        required: ["phase", "outcome"],
        properties: TopProperties {
            phase: Described {
                description: "The phase that produced the result.",
                rule: PhaseIds(phases),
            },
            outcome: Described {
                description: "The outcome the phase emits.",
                rule: TypeString { kind: "string" },
            },
        },
        one_of: Refs(phases),
        defs: Defs(phases),
    }
}
