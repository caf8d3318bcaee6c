//! The graph of a REAL or VEAL loop, and the MAS fields its objectives carry (mapping.md).
//!
//! The MAS front end lowers a loop into this graph ([`derive_graph`]), the AgentPM back end
//! writes it as it is, and the MAS back end reads a written graph back into the MAS loop it
//! came from ([`decode`]). An AgentPM manifest has no place for MAS fields (formats.md 1.1:
//! every other key is an error), so they ride in the objectives, with a fixed wording:
//!
//! * the first phase (`validate` / `read`): the validator, the checks, the inputs, and last
//!   the mission, carried exactly (`Mission:` on a line of its own, then the text);
//! * `eval`: the attempts and the escalation (with the fallback agent), the outputs, and
//!   last the success criteria, carried exactly;
//! * `act`: the actor.
//!
//! Names are in backticks (or a JSON string when they hold a backtick or a control
//! character); each check and port is one line, `- `id`: key value, ...`, each value a
//! JSON value, so every field is carried byte for byte and the lines cannot be confused
//! with the free text that ends the objective. [`decode`] only accepts a graph that is
//! the one [`derive_graph`] writes for what it decoded, up to phase naming, phase access
//! and outcome descriptions, which carry nothing of the MAS loop: so a conversion and its
//! reverse are a fixed point, and a graph edited there since it was written still reads
//! back as its loop ([`edits_since_written`] says what the MAS loop cannot hold).

use serde_json::Value;

use super::{
    Access, Check, Destination, Escalation, FixedLoop, Goal, Graph, IMPLICIT_OUTCOME, LoopPattern,
    MemoryAccess, Origin, Outcome, Phase, Port, REAL, Recognised, Roles, Spec, Terminal,
    Transition, same_content,
};

/// `max_attempts` when a MAS loop does not say (seed 004).
const DEFAULT_ATTEMPTS: u64 = 3;

/// The version a conversion gives a loop that has none (mapping.md: "use `0.1.0`").
pub const DEFAULT_VERSION: &str = "0.1.0";

/// The description a conversion to AgentPM gives a MAS loop that has none (AgentPM
/// requires one); the reverse conversion recognises it and leaves the description out.
pub fn placeholder_description(name: &str, pattern: LoopPattern) -> String {
    match pattern {
        LoopPattern::Real => format!("REAL loop `{name}` (converted from multi-agent-spec)."),
        LoopPattern::Veal => format!("VEAL loop `{name}` (converted from multi-agent-spec)."),
        LoopPattern::General => format!("Loop `{name}`."),
    }
}

/// The three-phase graph of a REAL or VEAL loop, from the fixed-loop table, its objectives
/// carrying the loop's MAS fields.
pub fn derive_graph(spec: &Spec) -> Graph {
    let fixed = FixedLoop::of(spec.pattern).unwrap_or(REAL);
    let o = Origin::new("/type");
    let esc_text = escalation_text(spec);
    let transition = |from: &str, on: &str, to: Destination| Transition {
        from: from.to_owned(),
        on: on.to_owned(),
        to,
        final_state: None,
        origin: o.clone(),
    };
    let phase = |id: &str, objective: String, access, outcomes| Phase {
        id: id.to_owned(),
        objective,
        access,
        outcomes,
        origin: o.clone(),
    };
    let outcome = |id: &str, description: String| Outcome {
        id: id.to_owned(),
        description,
        origin: o.clone(),
    };
    let eval_outcomes = vec![
        outcome(fixed.success.0, fixed.success.1.to_owned()),
        outcome(fixed.retry.0, fixed.retry.1.to_owned()),
        outcome(fixed.escalate, escalate_description(spec, &esc_text)),
    ];
    // Seed 004: the validator is read-only, so `validate` never writes memory.
    let first_access = match fixed.pattern {
        LoopPattern::Veal => access(true, Some(true), true, Some(false)),
        _ => access(true, None, true, Some(true)),
    };
    let back_to = |id: &str| Destination::Phase(id.to_owned());
    Graph {
        entry: fixed.first.to_owned(),
        entry_origin: o.clone(),
        phases: vec![
            phase(fixed.first, first_objective(spec), first_access, None),
            phase(
                fixed.eval,
                eval_objective(spec, &esc_text),
                access(false, None, true, None),
                Some(eval_outcomes),
            ),
            phase(
                fixed.act,
                act_objective(spec),
                access(true, Some(true), true, Some(true)),
                None,
            ),
        ],
        transitions: vec![
            transition(fixed.first, IMPLICIT_OUTCOME, back_to(fixed.eval)),
            transition(
                fixed.eval,
                fixed.success.0,
                Destination::Terminal(Terminal::End),
            ),
            transition(fixed.eval, fixed.retry.0, back_to(fixed.act)),
            transition(
                fixed.eval,
                fixed.escalate,
                Destination::Terminal(spec.effective_escalation().target()),
            ),
            transition(fixed.act, IMPLICIT_OUTCOME, back_to(fixed.first)),
        ],
        checkpoints: None,
    }
}

fn access(tools: bool, knowledge: Option<bool>, read: bool, write: Option<bool>) -> Option<Access> {
    Some(Access {
        tools: Some(tools),
        knowledge,
        memory: Some(MemoryAccess {
            read: Some(read),
            write,
        }),
    })
}

/// The MAS loop a general graph was written from: a graph with a fixed loop's shape whose
/// objectives are exactly those [`derive_graph`] writes for the decoded fields. The result
/// has the pattern, the roles, the goal, `max_attempts` (from `max_steps`, rounded up) and
/// the escalation; its graph is the derived one, equal to `spec`'s.
pub fn decode(spec: &Spec) -> Option<Spec> {
    let shape = FixedLoop::recognise(spec)?;
    let fixed = shape.fixed;
    let objective = |id: &str| spec.phase(id).map(|p| p.objective.as_str());
    let first = read_first(fixed.pattern, objective(&shape.first)?)?;
    let eval = read_eval(objective(&shape.eval)?)?;
    let actor = read_act(objective(&shape.act)?)?;
    let escalation = match (shape.escalate_to, &eval.fallback_agent) {
        (Terminal::Handoff, Some(_)) => Escalation::Fallback,
        (Terminal::Handoff, None) => Escalation::Human,
        (Terminal::Abort, _) => Escalation::Abort,
        (Terminal::End, _) => Escalation::Continue,
    };
    let mut out = Spec {
        source_format: spec.source_format,
        name: spec.name.clone(),
        description: spec.description.clone(),
        pattern: fixed.pattern,
        archetype: spec.archetype.clone(),
        roles: Roles {
            actor,
            validator: first.validator,
            fallback_agent: eval.fallback_agent,
        },
        goal: Goal {
            mission: first.text,
            success_criteria: eval.text,
            checks: first.checks,
            inputs: first.inputs,
            outputs: eval.outputs,
        },
        ..Spec::default()
    };
    // The attempts the text names, when `max_steps` is theirs (it saturates for huge
    // counts), else those `max_steps` allows; 3, the default, is left out.
    let attempts = spec.bounds.max_steps.map(|steps| match eval.attempts {
        Some(n) if super::max_steps_for(n) == steps => n,
        _ => attempts_for(steps),
    });
    out.bounds.max_attempts = attempts.filter(|&n| n != DEFAULT_ATTEMPTS);
    out.bounds.escalation = Some(escalation);
    out.graph = derive_graph(&out);
    let mut graph = spec.graph.clone();
    graph.checkpoints = graph.checkpoints.filter(|c| !c.is_empty());
    let named = with_phase_names(out.graph.clone(), &shape);
    same_content(&carrying(graph), &carrying(named)).then_some(out)
}

/// The parts of a graph that carry a MAS loop: without the phases' access and the
/// outcomes' descriptions, which a MAS loop has no place for.
fn carrying(mut g: Graph) -> Graph {
    for p in &mut g.phases {
        p.access = None;
        for o in p.outcomes.iter_mut().flatten() {
            o.description.clear();
        }
    }
    g
}

/// What a graph written from the MAS loop `mas` changed since in what does not carry it
/// (a phase's access, an outcome's description), which a MAS loop cannot hold: the
/// pointer of each change, and what it is.
pub fn edits_since_written(spec: &Spec, mas: &Spec) -> Vec<(String, String)> {
    let written = derive_graph_named_as(mas, spec);
    let mut edits = Vec::new();
    for p in &spec.graph.phases {
        let Some(w) = written.phases.iter().find(|w| w.id == p.id) else {
            continue;
        };
        if !same_content(&p.access, &w.access) {
            edits.push((
                p.origin.pointer_to("access"),
                format!("the access of phase `{}`", p.id),
            ));
        }
        for o in p.outcomes.iter().flatten() {
            let was = w.outcomes.iter().flatten().find(|x| x.id == o.id);
            if was.is_some_and(|x| x.description != o.description) {
                edits.push((
                    o.origin.pointer_to("description"),
                    format!("the description of outcome `{}` of phase `{}`", o.id, p.id),
                ));
            }
        }
    }
    edits
}

/// [`derive_graph`] of the MAS loop `mas`, its phases named as the graph `named_as` names
/// them (the fixed loops are recognised up to phase naming).
pub fn derive_graph_named_as(mas: &Spec, named_as: &Spec) -> Graph {
    let graph = derive_graph(mas);
    match FixedLoop::recognise(named_as) {
        Some(shape) => with_phase_names(graph, &shape),
        None => graph,
    }
}

/// A fixed loop's graph `g` with its phases named as `shape` names them.
fn with_phase_names(mut g: Graph, shape: &Recognised) -> Graph {
    let fixed = &shape.fixed;
    let names = [
        (fixed.first, &shape.first),
        (fixed.eval, &shape.eval),
        (fixed.act, &shape.act),
    ];
    let rename = |id: &mut String| {
        if let Some((_, to)) = names.iter().find(|(from, _)| id == from) {
            id.clone_from(to);
        }
    };
    rename(&mut g.entry);
    for p in &mut g.phases {
        rename(&mut p.id);
    }
    for t in &mut g.transitions {
        rename(&mut t.from);
        if let Destination::Phase(to) = &mut t.to {
            rename(to);
        }
    }
    g
}

/// `max_attempts` for `max_steps`: `(max_steps + 1) / 3`, rounded up, at least 1.
pub fn attempts_for(steps: u64) -> u64 {
    (u128::from(steps) + 1)
        .div_ceil(3)
        .try_into()
        .unwrap_or(u64::MAX)
        .max(1)
}

// ---- writing ----------------------------------------------------------------------------

/// An agent or check name: in backticks, or a JSON string when backticks cannot hold it.
fn name(s: &str) -> String {
    let plain = !s.is_empty() && !s.contains('`') && !s.chars().any(char::is_control);
    if plain {
        format!("`{s}`")
    } else {
        serde_json::to_string(s).unwrap_or_default()
    }
}

/// `Checks:` and one line per item, `- `id`: key value, ...`; nothing for no items.
fn items(out: &mut Vec<String>, header: &str, id_key: &str, list: Option<Vec<Value>>) {
    let list = list.unwrap_or_default();
    if list.is_empty() {
        return;
    }
    out.push(format!("{header}:"));
    for item in list {
        let Value::Object(map) = item else { continue };
        let id = map.get(id_key).and_then(Value::as_str).unwrap_or_default();
        let fields: Vec<String> = map
            .iter()
            .filter(|(k, _)| *k != id_key)
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        if fields.is_empty() {
            out.push(format!("- {}", name(id)));
        } else {
            out.push(format!("- {}: {}", name(id), fields.join(", ")));
        }
    }
}

fn values<T: serde::Serialize>(list: Option<&Vec<T>>) -> Option<Vec<Value>> {
    list.map(|l| {
        l.iter()
            .filter_map(|x| serde_json::to_value(x).ok())
            .collect()
    })
}

/// The free text that ends an objective: `Mission:` on a line, then the text as it is.
fn free_text(out: &mut Vec<String>, header: &str, text: Option<&str>) {
    if let Some(t) = text {
        out.push(format!("{header}:\n{t}"));
    }
}

const VALIDATE_LEAD: &str = " runs every check read-only and reports each result.";
const READ_LEAD: &str = "Read the mission and requirements and gather the current state.";

/// The first phase's objective: the validator, the checks, the inputs and the mission.
fn first_objective(spec: &Spec) -> String {
    let validator = spec.roles.validator.as_deref();
    let mut lines = Vec::new();
    if spec.pattern == LoopPattern::Veal {
        let who = validator.map_or("The validator".to_owned(), |v| {
            format!("Validator {}", name(v))
        });
        lines.push(format!("{who}{VALIDATE_LEAD}"));
    } else {
        lines.push(READ_LEAD.to_owned());
        if let Some(v) = validator {
            lines.push(format!("Validator: {}.", name(v)));
        }
    }
    let g = &spec.goal;
    items(&mut lines, "Checks", "id", values(g.checks.as_ref()));
    items(&mut lines, "Inputs", "name", values(g.inputs.as_ref()));
    free_text(&mut lines, "Mission", g.mission.as_deref());
    lines.join("\n")
}

/// The escalate outcome's description (it carries nothing of the MAS loop): the
/// escalation, and for `continue` that the loop then ends with its issues unresolved, as
/// the diagrams label the edge (`$end` is no success there).
fn escalate_description(spec: &Spec, esc_text: &str) -> String {
    match spec.effective_escalation() {
        Escalation::Continue => format!(
            "Attempts are exhausted; {esc_text}: the loop ends, issues unresolved (not a success)."
        ),
        _ => format!("Attempts are exhausted; {esc_text}."),
    }
}

/// `escalation: human`, or `escalation: fallback to agent `x``.
fn escalation_text(spec: &Spec) -> String {
    match spec.effective_escalation() {
        Escalation::Fallback => format!(
            "escalation: fallback to agent {}",
            spec.roles
                .fallback_agent
                .as_deref()
                .map_or("?".to_owned(), name)
        ),
        other => format!("escalation: {}", other.as_str()),
    }
}

const VEAL_VERDICT: &str =
    "Evaluate the check results: GO only if every required check passed, otherwise NO-GO.";
const REAL_VERDICT: &str =
    "Evaluate the situation against the mission: is it complete, or what should be done next?";

/// The `eval` objective: the verdict rule, when to escalate, the outputs and the success
/// criteria.
fn eval_objective(spec: &Spec, esc_text: &str) -> String {
    let verdict = match spec.pattern {
        LoopPattern::Veal => VEAL_VERDICT,
        _ => REAL_VERDICT,
    };
    let attempts = usize::try_from(spec.effective_max_attempts()).unwrap_or(usize::MAX);
    let mut lines = vec![
        verdict.to_owned(),
        format!(
            "After {} (max_attempts), choose `escalate` ({esc_text}).",
            crate::text::count(attempts, "failed evaluation", "failed evaluations")
        ),
    ];
    items(
        &mut lines,
        "Outputs",
        "name",
        values(spec.goal.outputs.as_ref()),
    );
    free_text(
        &mut lines,
        "Success criteria",
        spec.goal.success_criteria.as_deref(),
    );
    lines.join("\n")
}

/// The `act` objective, naming the actor.
fn act_objective(spec: &Spec) -> String {
    let actor = spec
        .roles
        .actor
        .as_deref()
        .map_or("The actor".to_owned(), |a| format!("Actor {}", name(a)));
    match spec.pattern {
        LoopPattern::Veal => {
            format!(
                "{actor} fixes what the failing checks found, then the state is validated again."
            )
        }
        _ => format!("{actor} works toward the mission, then the loop reads the new state."),
    }
}

// ---- reading ----------------------------------------------------------------------------
// Each reader takes apart what a writer above wrote, loosely: `decode` checks the result by
// writing the graph again and comparing.

/// A name as [`name`] writes it, and the text after it.
fn read_name(s: &str) -> Option<(String, &str)> {
    if let Some(rest) = s.strip_prefix('`') {
        let end = rest.find('`')?;
        return Some((rest[..end].to_owned(), &rest[end + 1..]));
    }
    let (v, rest) = read_value(s)?;
    Some((v.as_str()?.to_owned(), rest))
}

/// A JSON value at the start of `s`, and the text after it.
fn read_value(s: &str) -> Option<(Value, &str)> {
    let mut stream = serde_json::Deserializer::from_str(s).into_iter::<Value>();
    let v = stream.next()?.ok()?;
    Some((v, &s[stream.byte_offset()..]))
}

/// One item line (without `- `) as the JSON object it was written from.
fn read_item(line: &str, id_key: &str) -> Option<Value> {
    let (id, mut rest) = read_name(line)?;
    let mut map = serde_json::Map::new();
    map.insert(id_key.to_owned(), Value::String(id));
    if rest.is_empty() {
        return Some(Value::Object(map));
    }
    rest = rest.strip_prefix(": ")?;
    loop {
        let (key, after) = rest.split_once(' ')?;
        let (v, after) = read_value(after)?;
        map.insert(key.to_owned(), v);
        if after.is_empty() {
            return Some(Value::Object(map));
        }
        rest = after.strip_prefix(", ")?;
    }
}

/// What an objective's lines after the first hold.
#[derive(Default)]
struct Sections {
    validator: Option<String>,
    checks: Option<Vec<Check>>,
    inputs: Option<Vec<Port>>,
    outputs: Option<Vec<Port>>,
    fallback_agent: Option<String>,
    /// The attempts `eval` names.
    attempts: Option<u64>,
    /// The free text at the end (mission or success criteria).
    text: Option<String>,
}

/// Read the lines after an objective's first: item lists under their headers, then the
/// free text under `text_header`.
fn read_sections(mut rest: &str, text_header: &str, out: &mut Sections) -> Option<()> {
    let free = format!("{text_header}:\n");
    let mut list: Option<(&str, Vec<Value>)> = None;
    while !rest.is_empty() {
        if let Some(text) = rest.strip_prefix(free.as_str()) {
            out.text = Some(text.to_owned());
            break;
        }
        let (line, after) = rest.split_once('\n').unwrap_or((rest, ""));
        rest = after;
        if let (Some(item), Some((key, items))) = (line.strip_prefix("- "), list.as_mut()) {
            let id_key = if *key == "Checks" { "id" } else { "name" };
            items.push(read_item(item, id_key)?);
            continue;
        }
        store(list.take(), out)?;
        match line.strip_suffix(':') {
            Some(h @ ("Checks" | "Inputs" | "Outputs")) => list = Some((h, Vec::new())),
            _ => {
                let v = line.strip_prefix("Validator: ")?.strip_suffix('.')?;
                let (v, tail) = read_name(v)?;
                tail.is_empty().then_some(())?;
                out.validator = Some(v);
            }
        }
    }
    store(list, out)
}

fn store(list: Option<(&str, Vec<Value>)>, out: &mut Sections) -> Option<()> {
    let Some((key, items)) = list else {
        return Some(());
    };
    let items = Value::Array(items);
    match key {
        "Checks" => out.checks = Some(serde_json::from_value(items).ok()?),
        "Inputs" => out.inputs = Some(serde_json::from_value(items).ok()?),
        _ => out.outputs = Some(serde_json::from_value(items).ok()?),
    }
    Some(())
}

fn read_first(pattern: LoopPattern, objective: &str) -> Option<Sections> {
    let (lead, rest) = objective.split_once('\n').unwrap_or((objective, ""));
    let mut out = Sections::default();
    if pattern == LoopPattern::Veal {
        let who = lead.strip_suffix(VALIDATE_LEAD)?;
        if let Some(v) = who.strip_prefix("Validator ") {
            let (v, tail) = read_name(v)?;
            tail.is_empty().then_some(())?;
            out.validator = Some(v);
        }
    }
    read_sections(rest, "Mission", &mut out)?;
    Some(out)
}

fn read_eval(objective: &str) -> Option<Sections> {
    let (_verdict, rest) = objective.split_once('\n')?;
    let (rule, rest) = rest.split_once('\n').unwrap_or((rest, ""));
    let mut out = Sections {
        attempts: rule
            .strip_prefix("After ")
            .and_then(|r| r.split_once(' '))
            .and_then(|(n, _)| n.parse().ok()),
        ..Sections::default()
    };
    if let Some((_, agent)) = rule.split_once("fallback to agent ") {
        let (a, tail) = read_name(agent)?;
        tail.starts_with(").").then_some(())?;
        out.fallback_agent = Some(a);
    }
    read_sections(rest, "Success criteria", &mut out)?;
    out.validator.is_none().then_some(out)
}

fn read_act(objective: &str) -> Option<Option<String>> {
    if objective.starts_with("The actor ") {
        return Some(None);
    }
    let (a, tail) = read_name(objective.strip_prefix("Actor ")?)?;
    tail.starts_with(' ').then_some(Some(a))
}

#[cfg(test)]
mod tests {

    use super::{items, name, read_item, read_name};
    #[test]
    fn names_and_items_read_back_as_written() {
        for n in ["qa", "code fixer", "a`b", "line\nbreak", "\"quoted\""] {
            let written = name(n);
            assert_eq!(read_name(&written), Some((n.to_owned(), "")), "{written}");
        }
        let item = serde_json::json!({"id": "build", "type": "command", "command": "go \"x\"\n", "required": true});
        let mut lines = Vec::new();
        items(&mut lines, "Checks", "id", Some(vec![item.clone()]));
        assert_eq!(lines.len(), 2);
        let line = lines[1].strip_prefix("- ").expect("an item line");
        assert_eq!(read_item(line, "id"), Some(item));
    }
}
