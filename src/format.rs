//! The tags: which loop formats and which outputs exist, and the facts about each that need
//! nothing but the tag (names, extensions, folder layout).
//!
//! This module is a leaf: it imports no other module of the crate, so every layer can name
//! a format or a target. What a format *does* (detection, reading, writing, its model's
//! schema) is dispatched by [`crate::pipeline`], above the front and back ends. Adding a
//! format is one [`Format`] variant plus its modules (`model::X`, `front::X`, `back::X`):
//! the compiler names every match that needs an arm, and [`Target`] gains it through
//! [`Target::Loop`] without a list of its own.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Declares a fieldless enum and its `ALL`, every variant in the order declared: a
/// variant is in `ALL` by being declared, so no hand-written list can leave one out.
macro_rules! enum_with_all {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $($(#[$vmeta:meta])* $variant:ident,)* }
        $(#[$all_meta:meta])*
        const ALL;
    ) => {
        $(#[$meta])*
        pub enum $name { $($(#[$vmeta])* $variant,)* }

        impl $name {
            $(#[$all_meta])*
            pub const ALL: [$name; [$(stringify!($variant)),*].len()] = [$($name::$variant),*];
        }
    };
}
pub(crate) use enum_with_all;

enum_with_all! {
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
)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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
    /// XState v5 machine config (JSON).
    Xstate,
}
    /// Every format, in the order declared, which is the order detection tries them.
    const ALL;
}

impl Format {
    /// The name on the command line and in the IR's `source_format`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Agentpm => "agentpm",
            Format::Mas => "mas",
            Format::Ir => "ir",
            Format::Xstate => "xstate",
        }
    }

    /// What the format is called in prose.
    pub fn title(self) -> &'static str {
        match self {
            Format::Agentpm => "AgentPM loop manifest",
            Format::Mas => "multi-agent-spec loop",
            Format::Ir => "loopconv IR",
            Format::Xstate => "XState machine",
        }
    }

    /// The extension of the files loopconv writes in this format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Agentpm => "json",
            Format::Mas => "yaml",
            Format::Ir => "ir.json",
            Format::Xstate => "xstate.json",
        }
    }

    /// The file name of the committed schema under `schemas/`.
    pub fn schema_file_name(self) -> &'static str {
        match self {
            Format::Agentpm => "agentpm.schema.json",
            Format::Mas => "mas.schema.json",
            Format::Ir => "loopconv-ir.schema.json",
            Format::Xstate => "xstate.schema.json",
        }
    }

    /// Where a loop named `name` goes in a folder of this format: an AgentPM package
    /// folder (`name/agent.json`), `name.yaml`, or `name.ir.json`.
    pub fn file_in_folder(self, name: &str) -> PathBuf {
        match self {
            Format::Agentpm => PathBuf::from(name).join("agent.json"),
            Format::Mas => PathBuf::from(format!("{name}.yaml")),
            Format::Ir => PathBuf::from(format!("{name}.ir.json")),
            Format::Xstate => PathBuf::from(format!("{name}.xstate.json")),
        }
    }

    /// Whether a file name is this format's conventional file of a package folder, which a
    /// mirrored folder replaces by the new file (AgentPM's `agent.json`).
    pub fn is_package_file(self, file_name: &str) -> bool {
        match self {
            Format::Agentpm => file_name == "agent.json",
            Format::Mas | Format::Ir | Format::Xstate => false,
        }
    }
}

/// What a document is: a loop (in one of the [`Format`]s) or one of the documents that use
/// loops, which a project reads beside them (`crate::project`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DocKind {
    /// A loop, in a loop format.
    Loop(Format),
    /// A multi-agent-spec team (`specs/teams/*.json`): a workflow whose steps name agents
    /// and loops.
    MasTeam,
    /// A multi-agent-spec agent spec (Markdown with YAML front matter, `specs/agents/**`).
    MasAgent,
    /// An AgentPM Agent manifest (`kind: "agent"`), which may name a loop.
    AgentpmAgent,
    /// An AgentPM Template manifest (`kind: "template"`), which may depend on a loop.
    AgentpmTemplate,
    /// An AgentPM lock file (`agent.lock`).
    AgentLock,
}

impl DocKind {
    /// What the document is called in prose.
    pub fn title(self) -> &'static str {
        match self {
            DocKind::Loop(f) => f.title(),
            DocKind::MasTeam => "multi-agent-spec team",
            DocKind::MasAgent => "multi-agent-spec agent spec",
            DocKind::AgentpmAgent => "AgentPM Agent manifest",
            DocKind::AgentpmTemplate => "AgentPM Template manifest",
            DocKind::AgentLock => "AgentPM lock file",
        }
    }

    /// [`Self::title`] with its indefinite article.
    pub fn with_article(self) -> String {
        let title = self.title();
        let article = match self {
            DocKind::Loop(Format::Agentpm | Format::Xstate)
            | DocKind::AgentpmAgent
            | DocKind::AgentpmTemplate
            | DocKind::AgentLock => "an",
            DocKind::Loop(Format::Mas | Format::Ir) | DocKind::MasTeam | DocKind::MasAgent => "a",
        };
        format!("{article} {title}")
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Declares [`Target`] and `VIEWS`, its variants other than `Loop` in the order declared:
/// a view is in `VIEWS`, and so in [`Target::ALL`], by being declared.
macro_rules! target_with_views {
    (
        $(#[$meta:meta])*
        pub enum Target {
            $(#[$loop_meta:meta])* Loop(Format),
            $($(#[$vmeta:meta])* $view:ident,)*
        }
    ) => {
        $(#[$meta])*
        pub enum Target {
            $(#[$loop_meta])* Loop(Format),
            $($(#[$vmeta])* $view,)*
        }

        /// The targets that are not loop formats, in the order declared.
        const VIEWS: [Target; [$(stringify!($view)),*].len()] = [$(Target::$view),*];
    };
}

target_with_views! {
/// An output loopconv writes: a loop in one of the [`Format`]s, or a view of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// A loop file in a format (written, then read back and validated).
    Loop(Format),
    /// Mermaid diagram (flowchart or state diagram).
    Mermaid,
    /// Graphviz DOT diagram.
    Dot,
    /// PlantUML state diagram.
    PlantUml,
    /// Markdown documentation page.
    Markdown,
    /// JSON Schema of a loop format.
    Schema,
    /// A LangGraph program (one Python module that builds and runs the loop's graph).
    LangGraph,
}
}

/// How many targets `convert --to` writes ([`Target::is_converted`]).
const CONVERTED_LEN: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < Target::ALL.len() {
        if Target::ALL[i].is_converted() {
            n += 1;
        }
        i += 1;
    }
    n
};

impl Target {
    /// Every back end: the loop formats in [`Format::ALL`] order, then the views.
    pub const ALL: [Target; Format::ALL.len() + VIEWS.len()] = {
        let mut all = [Target::Schema; Format::ALL.len() + VIEWS.len()];
        let mut i = 0;
        while i < Format::ALL.len() {
            all[i] = Target::Loop(Format::ALL[i]);
            i += 1;
        }
        while i < all.len() {
            all[i] = VIEWS[i - Format::ALL.len()];
            i += 1;
        }
        all
    };

    /// What `convert --to` writes, in [`Target::ALL`] order: every loop format, then the
    /// programs (LangGraph).
    pub const CONVERTED: [Target; CONVERTED_LEN] = {
        let mut converted = [Target::LangGraph; CONVERTED_LEN];
        let mut n = 0;
        let mut i = 0;
        while i < Target::ALL.len() {
            if Target::ALL[i].is_converted() {
                converted[n] = Target::ALL[i];
                n += 1;
            }
            i += 1;
        }
        converted
    };

    /// Whether `convert --to` writes this target: a loop or a program, not a view of a loop.
    pub const fn is_converted(self) -> bool {
        match self {
            Target::Loop(_) | Target::LangGraph => true,
            Target::Mermaid
            | Target::Dot
            | Target::PlantUml
            | Target::Markdown
            | Target::Schema => false,
        }
    }

    /// Where a converted loop named `name` goes in a folder: the format's place, or for a
    /// LangGraph program `loop_name.py` with `-` as `_`: an importable module name that
    /// never shadows the standard library or what the module imports (a loop named
    /// `email`, `json`, `typing` or `langgraph` is `loop_email`, ...).
    pub fn file_in_folder(self, name: &str) -> PathBuf {
        match self {
            Target::Loop(format) => format.file_in_folder(name),
            Target::LangGraph => PathBuf::from(format!(
                "loop_{}.{}",
                name.replace('-', "_"),
                Target::LangGraph.extension()
            )),
            other => PathBuf::from(format!("{}.{}", name.replace('-', "_"), other.extension())),
        }
    }

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::Loop(format) => format.name(),
            Target::Mermaid => "mermaid",
            Target::Dot => "dot",
            Target::PlantUml => "plantuml",
            Target::Markdown => "markdown",
            Target::Schema => "schema",
            Target::LangGraph => "langgraph",
        }
    }

    /// The loop format this back end writes, if it writes one.
    pub fn format(self) -> Option<Format> {
        match self {
            Target::Loop(format) => Some(format),
            Target::Mermaid
            | Target::Dot
            | Target::PlantUml
            | Target::Markdown
            | Target::Schema
            | Target::LangGraph => None,
        }
    }

    /// Whether this back end draws a diagram (`loopconv graph --to`).
    pub fn is_diagram(self) -> bool {
        match self {
            Target::Mermaid | Target::Dot | Target::PlantUml => true,
            Target::Loop(_) | Target::Markdown | Target::Schema | Target::LangGraph => false,
        }
    }

    /// The extension of the files it writes.
    pub fn extension(self) -> &'static str {
        match self {
            Target::Loop(format) => format.extension(),
            Target::Mermaid => "mmd",
            Target::Dot => "dot",
            Target::PlantUml => "puml",
            Target::Markdown => "md",
            Target::Schema => "schema.json",
            Target::LangGraph => "py",
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(feature = "cli")]
impl clap::ValueEnum for Target {
    fn value_variants<'a>() -> &'a [Self] {
        &Target::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
    }
}

#[cfg(test)]
mod tests {
    use super::{Format, Target};

    #[test]
    fn every_format_is_a_target_once_and_names_are_unique() {
        for f in Format::ALL {
            let n = Target::ALL.iter().filter(|t| t.format() == Some(f)).count();
            assert_eq!(n, 1, "{f}");
        }
        let mut names: Vec<_> = Target::ALL.iter().map(|t| t.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Target::ALL.len());
    }

    #[test]
    fn the_derived_lists_are_in_order() {
        let names = |ts: &[Target]| ts.iter().map(|t| t.name()).collect::<Vec<_>>().join(" ");
        assert_eq!(
            Format::ALL.map(Format::name).join(" "),
            "agentpm mas ir xstate"
        );
        assert_eq!(
            names(&Target::ALL),
            "agentpm mas ir xstate mermaid dot plantuml markdown schema langgraph"
        );
        assert_eq!(names(&Target::CONVERTED), "agentpm mas ir xstate langgraph");
    }
}
