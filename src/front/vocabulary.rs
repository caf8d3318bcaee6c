//! The vocabulary of loopconv's formats: every property name of their schemas, so that the
//! tree shares these keys instead of allocating them (see [`crate::tree::Vocabulary`]). The
//! read pipeline and anything else that parses a loop passes it to the parsers.

use crate::tree::Vocabulary;

/// The keys of the loop formats (every property name of their schemas; a test keeps the
/// list equal to them), sorted.
pub static KEYS: Vocabulary = Vocabulary::new(&WORDS);

/// The words of [`KEYS`], by index: the compiled schemas (`front::shape::tables`) name
/// their properties by index into this list, so that matching a key to a property
/// compares two addresses.
pub(crate) static WORDS: [&str; 82] = [
    "$schema",
    "access",
    "action",
    "actions",
    "actor",
    "always",
    "archetype",
    "before_phase",
    "bounds",
    "checkpoint",
    "checkpoints",
    "checks",
    "command",
    "context",
    "default",
    "description",
    "empty_checkpoints",
    "enforced",
    "enforcement",
    "entry",
    "entry_phase",
    "environment",
    "error_policy",
    "escalation",
    "expected",
    "fallback_agent",
    "file",
    "files",
    "final_state",
    "from",
    "goal",
    "graph",
    "guard",
    "id",
    "initial",
    "inputs",
    "kind",
    "knowledge",
    "license",
    "limits",
    "loop",
    "max_attempts",
    "max_retries",
    "max_steps",
    "memory",
    "meta",
    "mission",
    "name",
    "objective",
    "on",
    "on_exhausted",
    "on_reject",
    "outcomes",
    "output",
    "outputs",
    "pattern",
    "phase_failure",
    "phases",
    "read",
    "readme",
    "reenter",
    "required",
    "roles",
    "schema",
    "schema_uri",
    "source_format",
    "spdx",
    "states",
    "status",
    "success_criteria",
    "tags",
    "target",
    "to",
    "tool_failure",
    "tools",
    "transition_order",
    "transitions",
    "type",
    "validator",
    "vars",
    "version",
    "write",
];

#[cfg(test)]
mod tests {

    use super::KEYS;
    #[test]
    fn the_keys_are_sorted_and_are_the_schemas_property_names() {
        fn names(s: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
            match s {
                serde_json::Value::Object(m) => {
                    for (k, v) in m {
                        match k.as_str() {
                            "properties" => {
                                if let Some(p) = v.as_object() {
                                    out.extend(p.keys().cloned());
                                    p.values().for_each(|v| names(v, out));
                                }
                            }
                            "const" | "enum" | "default" | "examples" => {}
                            _ => names(v, out),
                        }
                    }
                }
                serde_json::Value::Array(a) => a.iter().for_each(|v| names(v, out)),
                _ => {}
            }
        }
        let mut want = std::collections::BTreeSet::new();
        for f in crate::Format::ALL {
            names(crate::model::schema(f), &mut want);
        }
        let known: Vec<String> = KEYS.words().iter().map(|k| (*k).to_owned()).collect();
        assert_eq!(known, want.into_iter().collect::<Vec<_>>());
    }
}
