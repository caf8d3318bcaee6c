//! The format registry: every fact about a loop format, behind one enum.
//!
//! [`Format`] is the only list of formats. Its name, file extensions, detection, model
//! schema, reader, writer and folder layout are exhaustive matches on it, and it is the
//! CLI's value enum (`--from`, `--to`, `schema FORMAT`). Adding a format is one variant
//! plus its modules (`model::X`, `front::X`, `back::X`); the compiler names every match
//! that needs an arm.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::back::{self, Target};
use crate::diag::Diagnostics;
use crate::ir::Spec;
use crate::tree::{Document, Limits, Node};
use crate::{front, model};

/// A loop format loopconv reads and writes.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    Serialize,
    Deserialize,
    JsonSchema,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
#[schemars(description = "The format a loop was read from.")]
pub enum Format {
    /// AgentPM loop manifest (`kind: "loop"`, JSON).
    #[default]
    Agentpm,
    /// multi-agent-spec REAL/VEAL loop (YAML).
    Mas,
    /// loopconv's lossless IR (JSON).
    Ir,
}

impl Format {
    /// Every format, in the order detection tries them.
    pub const ALL: [Format; 3] = [Format::Agentpm, Format::Mas, Format::Ir];

    /// The name on the command line and in the IR's `source_format`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Agentpm => "agentpm",
            Format::Mas => "mas",
            Format::Ir => "ir",
        }
    }

    /// What the format is called in prose.
    pub fn title(self) -> &'static str {
        match self {
            Format::Agentpm => "AgentPM loop manifest",
            Format::Mas => "multi-agent-spec loop",
            Format::Ir => "loopconv IR",
        }
    }

    /// The extension of the files loopconv writes in this format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Agentpm => "json",
            Format::Mas => "yaml",
            Format::Ir => "ir.json",
        }
    }

    /// Whether a document looks like this format (detection by content).
    pub fn claims(self, root: &Node) -> bool {
        match self {
            Format::Agentpm => front::agentpm::claims(root),
            Format::Mas => front::mas::claims(root),
            Format::Ir => front::ir::claims(root),
        }
    }

    /// The JSON Schema of the format's model (what the shape check and `loopconv schema`
    /// use).
    pub fn schema(self) -> &'static serde_json::Value {
        match self {
            Format::Agentpm => model::agentpm::schema(),
            Format::Mas => model::mas::schema(),
            Format::Ir => model::ir::schema(),
        }
    }

    /// The file name of the committed schema under `schemas/`.
    pub fn schema_file_name(self) -> &'static str {
        match self {
            Format::Agentpm => "agentpm.schema.json",
            Format::Mas => "mas.schema.json",
            Format::Ir => "loopconv-ir.schema.json",
        }
    }

    /// Read a located document as this format: shape check, format warnings, lowering into
    /// the IR. `None` when the loop could not be built (the reasons are in `diags`).
    pub fn read(self, doc: &Document, limits: &Limits, diags: &mut Diagnostics) -> Option<Spec> {
        match self {
            Format::Agentpm => front::agentpm::read(doc, limits, diags),
            Format::Mas => front::mas::read(doc, limits, diags),
            Format::Ir => front::ir::read(doc, limits, diags),
        }
    }

    /// The back end that writes this format.
    pub fn target(self) -> Target {
        match self {
            Format::Agentpm => Target::Agentpm,
            Format::Mas => Target::Mas,
            Format::Ir => Target::Ir,
        }
    }

    /// Where a loop named `name` goes in a folder of this format: an AgentPM package
    /// folder (`name/agent.json`), `name.yaml`, or `name.ir.json`.
    pub fn file_in_folder(self, name: &str) -> PathBuf {
        match self {
            Format::Agentpm => PathBuf::from(name).join("agent.json"),
            Format::Mas => PathBuf::from(format!("{name}.yaml")),
            Format::Ir => PathBuf::from(format!("{name}.ir.json")),
        }
    }

    /// Whether a file name is this format's conventional file of a package folder, which a
    /// mirrored folder replaces by the new file (AgentPM's `agent.json`).
    pub fn is_package_file(self, file_name: &str) -> bool {
        match self {
            Format::Agentpm => file_name == "agent.json",
            Format::Mas | Format::Ir => false,
        }
    }

    /// The format a document claims to be, trying each in [`Format::ALL`] order.
    pub fn detect(root: &Node) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.claims(root))
    }

    /// Write a loop in this format (see [`back::write`]).
    pub fn write(
        self,
        spec: &Spec,
        info: &crate::valid::Info,
        opts: &back::Options,
        diags: &mut Diagnostics,
    ) -> Result<String, back::Error> {
        back::write(self.target(), spec, info, opts, diags)
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
