//! The subject of a diff [`Change`](super::Change): what changed, typed, and how the
//! outputs name it.

/// What a change is about. Phase ids are the new loop's (renames applied).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// A field of the loop itself.
    Loop(LoopField),
    /// Descriptive metadata.
    Metadata(Metadata),
    /// A phase.
    Phase(String),
    /// The objective of a phase.
    Objective(String),
    /// The access intent of a phase.
    Access(String),
    /// An outcome of a phase.
    Outcome {
        /// The phase.
        phase: String,
        /// The outcome id.
        outcome: String,
    },
    /// The transition from a phase on an outcome.
    Transition {
        /// The phase it leaves.
        from: String,
        /// The outcome it is taken on.
        on: String,
    },
    /// An approval checkpoint, by id.
    Checkpoint(String),
    /// The order of the checkpoints before a phase (the new id), which the runtime
    /// evaluates in order.
    CheckpointOrder(String),
    /// A limit of the loop.
    Limit(Limit),
    /// The escalation of a failed loop.
    Escalation,
    /// The error policy.
    ErrorPolicy,
    /// A MAS role.
    Role(RoleName),
    /// A text of the MAS goal.
    Goal(GoalText),
    /// A MAS check, by id.
    Check(String),
    /// A MAS input or output port, by name.
    Port(PortDirection, String),
}

/// A field of the loop (a [`Subject::Loop`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoopField {
    /// `name`.
    Name,
    /// `pattern`: general graph, REAL or VEAL.
    Pattern,
    /// `entry_phase`.
    EntryPhase,
}

/// A metadata key (a [`Subject::Metadata`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metadata {
    /// `version`.
    Version,
    /// `description`.
    Description,
    /// `archetype`.
    Archetype,
    /// `readme`.
    Readme,
    /// The package metadata: license or environment.
    Package,
}

/// A limit (a [`Subject::Limit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// `max_steps`.
    MaxSteps,
    /// `max_attempts`.
    MaxAttempts,
}

/// A MAS role (a [`Subject::Role`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoleName {
    /// `actor`.
    Actor,
    /// `validator`.
    Validator,
    /// `fallback_agent`.
    FallbackAgent,
}

/// A text of the MAS goal (a [`Subject::Goal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoalText {
    /// `mission`.
    Mission,
    /// `success_criteria`.
    SuccessCriteria,
}

/// Which list a port is in (a [`Subject::Port`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortDirection {
    /// `inputs`.
    Input,
    /// `outputs`.
    Output,
}

impl Subject {
    /// The kind of element, as the outputs name it: `loop`, `metadata`, `phase`,
    /// `objective`, `access`, `outcome`, `transition`, `checkpoint`, `limit`,
    /// `checkpoint order`, `escalation`, `error policy`, `role`, `goal`, `check`, `input`
    /// or `output`.
    pub fn element(&self) -> &'static str {
        match self {
            Subject::Loop(_) => "loop",
            Subject::Metadata(_) => "metadata",
            Subject::Phase(_) => "phase",
            Subject::Objective(_) => "objective",
            Subject::Access(_) => "access",
            Subject::Outcome { .. } => "outcome",
            Subject::Transition { .. } => "transition",
            Subject::Checkpoint(_) => "checkpoint",
            Subject::CheckpointOrder(_) => "checkpoint order",
            Subject::Limit(_) => "limit",
            Subject::Escalation => "escalation",
            Subject::ErrorPolicy => "error policy",
            Subject::Role(_) => "role",
            Subject::Goal(_) => "goal",
            Subject::Check(_) => "check",
            Subject::Port(PortDirection::Input, _) => "input",
            Subject::Port(PortDirection::Output, _) => "output",
        }
    }

    /// Which one, as the outputs name it: the id of a phase (for a checkpoint order: the
    /// guarded phase's), checkpoint or check, the name
    /// of a port, `phase/outcome`, `from --on-->`, or the key of a field (`entry_phase`,
    /// `max_steps`, `error_policy`, ...).
    pub fn id(&self) -> String {
        let mut id = String::new();
        self.push_id(&mut id);
        id
    }

    /// [`Subject::id`], appended to `out` (the text form of a diff writes one a change:
    /// a `String` made for each, of 67,108 changes, was 2 % of the diff).
    pub fn push_id(&self, out: &mut String) {
        let parts: [&str; 3] = match self {
            Subject::Phase(id)
            | Subject::Objective(id)
            | Subject::Access(id)
            | Subject::Checkpoint(id)
            | Subject::CheckpointOrder(id)
            | Subject::Check(id)
            | Subject::Port(_, id) => [id, "", ""],
            Subject::Outcome { phase, outcome } => [phase, "/", outcome],
            Subject::Transition { from, on } => {
                for part in [from, " --", on, "-->"] {
                    out.push_str(part);
                }
                return;
            }
            Subject::Loop(f) => [f.key(), "", ""],
            Subject::Metadata(m) => [m.key(), "", ""],
            Subject::Limit(l) => [l.key(), "", ""],
            Subject::Escalation => ["escalation", "", ""],
            Subject::ErrorPolicy => ["error_policy", "", ""],
            Subject::Role(r) => [r.key(), "", ""],
            Subject::Goal(g) => [g.key(), "", ""],
        };
        for part in parts {
            out.push_str(part);
        }
    }
}

impl LoopField {
    /// The field's key.
    pub fn key(self) -> &'static str {
        match self {
            LoopField::Name => "name",
            LoopField::Pattern => "pattern",
            LoopField::EntryPhase => "entry_phase",
        }
    }
}

impl Metadata {
    /// The key (`package` for the package metadata).
    pub fn key(self) -> &'static str {
        match self {
            Metadata::Version => "version",
            Metadata::Description => "description",
            Metadata::Archetype => "archetype",
            Metadata::Readme => "readme",
            Metadata::Package => "package",
        }
    }
}

impl Limit {
    /// The limit's key.
    pub fn key(self) -> &'static str {
        match self {
            Limit::MaxSteps => "max_steps",
            Limit::MaxAttempts => "max_attempts",
        }
    }
}

impl RoleName {
    /// The role's key.
    pub fn key(self) -> &'static str {
        match self {
            RoleName::Actor => "actor",
            RoleName::Validator => "validator",
            RoleName::FallbackAgent => "fallback_agent",
        }
    }
}

impl GoalText {
    /// The text's key.
    pub fn key(self) -> &'static str {
        match self {
            GoalText::Mission => "mission",
            GoalText::SuccessCriteria => "success_criteria",
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::analysis::diff::{Change, ChangeKind, Impact};
    use crate::analysis::diff::{
        GoalText, Limit, LoopField, Metadata, PortDirection, RoleName, Subject,
    };

    #[test]
    fn each_subject_is_named_as_the_outputs_name_it() {
        let named = [
            (Subject::Loop(LoopField::EntryPhase), "loop", "entry_phase"),
            (Subject::Metadata(Metadata::Package), "metadata", "package"),
            (Subject::Phase("act".into()), "phase", "act"),
            (Subject::Objective("act".into()), "objective", "act"),
            (Subject::Access("act".into()), "access", "act"),
            (
                Subject::Outcome {
                    phase: "act".into(),
                    outcome: "done".into(),
                },
                "outcome",
                "act/done",
            ),
            (
                Subject::Transition {
                    from: "act".into(),
                    on: "done".into(),
                },
                "transition",
                "act --done-->",
            ),
            (Subject::Checkpoint("gate".into()), "checkpoint", "gate"),
            (
                Subject::CheckpointOrder("act".into()),
                "checkpoint order",
                "act",
            ),
            (Subject::Limit(Limit::MaxAttempts), "limit", "max_attempts"),
            (Subject::Escalation, "escalation", "escalation"),
            (Subject::ErrorPolicy, "error policy", "error_policy"),
            (
                Subject::Role(RoleName::FallbackAgent),
                "role",
                "fallback_agent",
            ),
            (
                Subject::Goal(GoalText::SuccessCriteria),
                "goal",
                "success_criteria",
            ),
            (Subject::Check("tests".into()), "check", "tests"),
            (
                Subject::Port(PortDirection::Input, "repo".into()),
                "input",
                "repo",
            ),
            (
                Subject::Port(PortDirection::Output, "report".into()),
                "output",
                "report",
            ),
        ];
        for (subject, element, id) in named {
            assert_eq!((subject.element(), subject.id().as_str()), (element, id));
        }
    }

    #[test]
    fn a_change_serialises_with_its_element_and_id() {
        let subject = Subject::Transition {
            from: "a --b".into(),
            on: "c/d".into(),
        };
        let c = Change::new(ChangeKind::Added, subject, Impact::Compatible, "why")
            .values(None, Some("$end".into()));
        assert_eq!(
            serde_json::to_string(&c).expect("JSON"),
            r#"{"kind":"added","element":"transition","id":"a --b --c/d-->","new":"$end","impact":"compatible","reason":"why"}"#
        );
    }
}
