//! The cross-file rules, one function each, and the helpers they share. Each rule reads the
//! project's members and returns diagnostics placed in the file they point into.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic};

use super::agent_spec::AgentSpec;
use super::agentpm::{Lock, Manifest, PackageRef};
use super::words::{closest, quote};
use super::{Facts, LoopFacts, Member, Project};

/// Every rule, in this order; the diagnostics sorted by member, then position.
pub(super) fn run(project: &Project) -> Vec<Diagnostic> {
    let idx = Index::of(project.members());
    let mut out: Vec<(usize, Diagnostic)> = Vec::new();
    step_loops_resolve(&idx, &mut out);
    team_agents_have_specs(&idx, &mut out);
    loop_agents_have_specs(&idx, &mut out);
    loop_names_are_unique(&idx, &mut out);
    agent_loops_resolve(&idx, &mut out);
    out.sort_by(|(a, x), (b, y)| {
        let key = |d: &Diagnostic| {
            (
                d.location.pos.map_or(0, |p| p.start),
                d.location.pointer.clone(),
            )
        };
        (a, key(x), x.code).cmp(&(b, key(y), y.code))
    });
    out.into_iter().map(|(_, d)| d).collect()
}

/// The project's members by kind and name, built once.
struct Index<'a> {
    members: &'a [Member],
    /// Loops in member order: member index and facts.
    loops: Vec<(usize, &'a LoopFacts)>,
    /// Loops by name.
    loop_names: HashMap<&'a str, Vec<usize>>,
    /// Agent specs.
    agents: Vec<&'a AgentSpec>,
    /// The names that reference an agent spec ([`AgentSpec::is`]): each one's name, and
    /// its name qualified by its namespace. A scan of the specs for each reference was
    /// half the rules' time in a workspace of 1,000 agents and 10,000 loops.
    agent_names: HashSet<String>,
    /// Members by normalised path, when a member resolves loops by path (an AgentPM
    /// manifest): normalising each path was an eighth of the rules' time in a workspace
    /// with none.
    by_path: HashMap<PathBuf, usize>,
    /// Whether the project is a multi-agent-spec workspace (a team or agent spec in it).
    mas_workspace: bool,
}

impl<'a> Index<'a> {
    fn of(members: &'a [Member]) -> Index<'a> {
        let mut idx = Index {
            members,
            loops: Vec::new(),
            loop_names: HashMap::new(),
            agents: Vec::new(),
            agent_names: HashSet::new(),
            by_path: HashMap::new(),
            mas_workspace: false,
        };
        let by_path = (members.iter()).any(|m| matches!(m.facts, Facts::Manifest(_)));
        for (i, m) in members.iter().enumerate() {
            if by_path {
                idx.by_path.insert(normal(&m.path), i);
            }
            match &m.facts {
                Facts::Loop(l) => {
                    idx.loops.push((i, l));
                    idx.loop_names.entry(l.name.as_str()).or_default().push(i);
                }
                Facts::Agent(a) => {
                    idx.agents.push(a);
                    idx.agent_names.insert(a.name.clone());
                    idx.agent_names.insert(a.qualified());
                    idx.mas_workspace = true;
                }
                Facts::Team(_) => idx.mas_workspace = true,
                Facts::Manifest(_) | Facts::Lock(_) => {}
            }
        }
        idx
    }

    fn loop_at(&self, i: usize) -> Option<&'a LoopFacts> {
        match &self.members[i].facts {
            Facts::Loop(l) => Some(l),
            _ => None,
        }
    }

    /// Whether `name` references an agent spec ([`AgentSpec::is`]).
    fn has_agent(&self, name: &str) -> bool {
        self.agent_names.contains(name)
    }

    /// The closest agent name, for a did-you-mean.
    fn closest_agent(&self, name: &str) -> Option<String> {
        let names: Vec<String> = self.agents.iter().map(|a| a.qualified()).collect();
        closest(name, names.iter().map(String::as_str)).map(str::to_owned)
    }
}

/// A path made absolute (from the working folder), with `.` steps removed, for comparing
/// paths given in different forms (`agent.json`, `./agent.json`).
pub fn normal(p: &Path) -> PathBuf {
    std::path::absolute(p)
        .unwrap_or_else(|_| p.to_path_buf())
        .components()
        .collect()
}

/// The members of each kind of facts.
fn teams<'a>(idx: &Index<'a>) -> impl Iterator<Item = (usize, &'a super::team::Team)> + use<'a> {
    let members = idx.members;
    members
        .iter()
        .enumerate()
        .filter_map(|(i, m)| match &m.facts {
            Facts::Team(t) => Some((i, &**t)),
            _ => None,
        })
}

/// `W001`: a step's `loop` names a loop of the project, when it holds any (a team read
/// alone, `--no-workspace`, cannot tell).
fn step_loops_resolve(idx: &Index<'_>, out: &mut Vec<(usize, Diagnostic)>) {
    let names: Vec<&str> = idx.loops.iter().map(|(_, l)| l.name.as_str()).collect();
    if names.is_empty() {
        return;
    }
    for (i, team) in teams(idx) {
        for step in &team.steps {
            let Some((name, at)) = &step.loop_name else {
                continue;
            };
            if idx.loop_names.contains_key(name.as_str()) {
                continue;
            }
            let mut d = Diagnostic::new(
                Code::UnknownStepLoop,
                format!(
                    "step `{}` runs the loop `{}`, which is no loop of this project",
                    step.name.as_deref().unwrap_or("?"),
                    quote(name)
                ),
            );
            if let Some(close) = closest(name, names.iter().copied()) {
                d = d.with_suggestion(at.replace_with(close));
                if let Some(&j) = idx.loop_names.get(close).and_then(|v| v.first())
                    && let Some(l) = idx.loop_at(j)
                {
                    let at = l.name_at(&idx.members[j].file);
                    d.labels
                        .push(at.label(format!("the loop `{close}` is named here")));
                }
            }
            out.push((i, at.place(d)));
        }
    }
}

/// `W005`: the roster, the orchestrator and agent steps name agent specs (when there are
/// any), as upstream's `ValidateAgentReferences`.
fn team_agents_have_specs(idx: &Index<'_>, out: &mut Vec<(usize, Diagnostic)>) {
    if idx.agents.is_empty() {
        return;
    }
    for (i, team) in teams(idx) {
        let roster = team.roster.iter().map(|(n, at)| ("the roster", n, at));
        let orchestrator = team
            .orchestrator
            .iter()
            .map(|(n, at)| ("the orchestrator", n, at));
        let steps =
            (team.steps.iter()).filter_map(|s| s.agent.as_ref().map(|(n, at)| ("a step", n, at)));
        for (what, name, at) in roster.chain(orchestrator).chain(steps) {
            if idx.has_agent(name) {
                continue;
            }
            let mut d = Diagnostic::new(
                Code::UnknownTeamAgent,
                format!(
                    "{what} references agent `{}` with no matching spec",
                    quote(name)
                ),
            );
            d = match idx.closest_agent(name) {
                Some(close) => d.with_suggestion(at.replace_with(&close)),
                None => d.with_help("add its spec under `specs/agents/` (Markdown with a `name` in its front matter)"),
            };
            out.push((i, at.place(d)));
        }
    }
}

/// `W006`: a loop's agents have specs (when there are any); a warning, since the agent may
/// be defined elsewhere.
fn loop_agents_have_specs(idx: &Index<'_>, out: &mut Vec<(usize, Diagnostic)>) {
    if idx.agents.is_empty() {
        return;
    }
    for &(i, l) in &idx.loops {
        for (role, name) in &l.roles {
            if idx.has_agent(name) {
                continue;
            }
            let at = &LoopFacts::role_at(*role, &idx.members[i].file);
            let d = Diagnostic::new(
                Code::LoopAgentWithoutSpec,
                format!(
                    "the loop's {} `{}` has no agent spec in this project",
                    role.key(),
                    quote(name)
                ),
            );
            let d = match idx.closest_agent(name) {
                Some(close) => d.with_suggestion(at.replace_with(&close)),
                None => d.with_help(
                    "add its spec under `specs/agents/`, unless the agent is defined elsewhere",
                ),
            };
            out.push((i, at.place(d)));
        }
    }
}

/// `W007`: loops of a multi-agent-spec workspace have distinct names (upstream silently
/// keeps the last).
fn loop_names_are_unique(idx: &Index<'_>, out: &mut Vec<(usize, Diagnostic)>) {
    if !idx.mas_workspace {
        return;
    }
    for &(i, l) in &idx.loops {
        let same = &idx.loop_names[l.name.as_str()];
        let first = same[0];
        if first == i {
            continue;
        }
        let Some(f) = idx.loop_at(first) else {
            continue;
        };
        let (f_file, l_file) = (&idx.members[first].file, &idx.members[i].file);
        let d = Diagnostic::new(
            Code::DuplicateLoopName,
            format!("two loops are named `{}`: {f_file} and {l_file}", quote(&l.name)),
        )
        .with_help("rename one of them: steps name a loop by its `name`, and upstream's loader keeps only the last");
        let mut d = l.name_at(l_file).place(d);
        d.labels
            .push(f.name_at(f_file).label("the other loop of this name"));
        out.push((i, d));
    }
}

/// How an Agent's loop was found.
enum Found {
    /// The member, and how it was found.
    At(usize, String),
    /// Nowhere.
    Nowhere,
}

/// `W101`-`W103`, `W105`, `W108`: an Agent's or Template's loop resolves as upstream
/// resolves it, to a loop, of an admitted version, with the bound phases.
fn agent_loops_resolve(idx: &Index<'_>, out: &mut Vec<(usize, Diagnostic)>) {
    for (i, m) in idx.members.iter().enumerate() {
        let Facts::Manifest(manifest) = &m.facts else {
            continue;
        };
        let Some(r) = &manifest.loop_ref else {
            continue;
        };
        let dir = m.path.parent().unwrap_or(Path::new(""));
        match resolve(idx, dir, r, out, i) {
            Found::At(j, how) => resolved(idx, i, manifest, r, j, &how, out),
            Found::Nowhere => out.push((i, unresolved(idx, r))),
        }
    }
}

/// The member an Agent or Template manifest's loop resolves to, and how it was found
/// (as [`agent_loops_resolve`] resolves it); `None` when member `i` is no manifest with a
/// `loop`, or it resolves to nothing.
pub(super) fn resolved_loop(project: &Project, i: usize) -> Option<(usize, String)> {
    let idx = Index::of(project.members());
    let m = idx.members.get(i)?;
    let Facts::Manifest(manifest) = &m.facts else {
        return None;
    };
    let r = manifest.loop_ref.as_ref()?;
    let dir = m.path.parent().unwrap_or(Path::new(""));
    match resolve(&idx, dir, r, &mut Vec::new(), i) {
        Found::At(j, how) => Some((j, how)),
        Found::Nowhere => None,
    }
}

/// Where the loop of a reference is: the lock's pin, an installed version, a local source.
fn resolve(
    idx: &Index<'_>,
    dir: &Path,
    r: &PackageRef,
    out: &mut Vec<(usize, Diagnostic)>,
    i: usize,
) -> Found {
    let lock = idx
        .by_path
        .get(&normal(&dir.join("agent.lock")))
        .and_then(|&l| match &idx.members[l].facts {
            Facts::Lock(lock) => Some((l, &**lock)),
            _ => None,
        });
    if let Some((
        _,
        Lock {
            root_loop: Some((scoped, version, at)),
        },
    )) = lock
        && *scoped == r.scoped()
    {
        if !admits(r.version.as_deref(), version) {
            let d = Diagnostic::new(
                Code::LockedVersionNotAdmitted,
                format!(
                    "agent.lock pins {scoped}@{}, which `{}` does not admit",
                    quote(version),
                    quote(r.version.as_deref().unwrap_or("*"))
                ),
            )
            .with_help("run `agentpm install` to refresh the lock, or change the reference");
            let mut d = r.at.place(d);
            d.labels.push(at.label("pinned here"));
            out.push((i, d));
        }
        let installed = installed_path(dir, r, version);
        if let Some(&j) = idx.by_path.get(&normal(&installed)) {
            return Found::At(
                j,
                format!(
                    "pinned by agent.lock at {version}, installed at {}",
                    idx.members[j].file
                ),
            );
        }
        return local_source(
            idx,
            dir,
            r,
            &format!("pinned by agent.lock at {version}, not installed: "),
        );
    }
    if let Some((j, v)) = highest_installed(idx, dir, r) {
        return Found::At(
            j,
            format!("installed version {v} at {}", idx.members[j].file),
        );
    }
    local_source(idx, dir, r, "")
}

/// `loops/<name>/agent.json` beside the manifest, as upstream's example workspaces keep a
/// loop's source before `agentpm install` copies it.
fn local_source(idx: &Index<'_>, dir: &Path, r: &PackageRef, why: &str) -> Found {
    let path = dir.join("loops").join(&r.name).join("agent.json");
    match idx.by_path.get(&normal(&path)) {
        Some(&j) => Found::At(
            j,
            format!("{why}read from the local source {}", idx.members[j].file),
        ),
        None => Found::Nowhere,
    }
}

/// `.agentpm/loops/<owner>/<name>/<version>/agent.json`.
fn installed_path(dir: &Path, r: &PackageRef, version: &str) -> PathBuf {
    dir.join(".agentpm/loops")
        .join(&r.owner)
        .join(&r.name)
        .join(version)
        .join("agent.json")
}

/// The highest installed version that the reference admits.
fn highest_installed(
    idx: &Index<'_>,
    dir: &Path,
    r: &PackageRef,
) -> Option<(usize, semver::Version)> {
    let base = normal(&dir.join(".agentpm/loops").join(&r.owner).join(&r.name));
    let mut best: Option<(usize, semver::Version)> = None;
    for &(j, _) in &idx.loops {
        let p = normal(&idx.members[j].path);
        let Ok(rest) = p.strip_prefix(&base) else {
            continue;
        };
        let mut parts = rest.components();
        let (Some(v), Some(f), None) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let Some(v) = v.as_os_str().to_str() else {
            continue;
        };
        if f.as_os_str() != "agent.json" || !admits(r.version.as_deref(), v) {
            continue;
        }
        let Ok(v) = semver::Version::parse(v) else {
            continue;
        };
        if best.as_ref().is_none_or(|(_, b)| v > *b) {
            best = Some((j, v));
        }
    }
    best
}

/// Whether `version` is one that `req` admits: exact, `X.Y` (any patch), `^`, `~`, `*`.
fn admits(req: Option<&str>, version: &str) -> bool {
    let Ok(v) = semver::Version::parse(version) else {
        return false;
    };
    let Some(req) = req.map(str::trim) else {
        return true;
    };
    let req = if req.starts_with(|c: char| c.is_ascii_digit()) {
        format!("={req}")
    } else {
        req.to_owned()
    };
    semver::VersionReq::parse(&req).is_ok_and(|r| r.matches(&v))
}

/// `W101`: the loop is nowhere.
fn unresolved(idx: &Index<'_>, r: &PackageRef) -> Diagnostic {
    let names: Vec<&str> = idx.loops.iter().map(|(_, l)| l.name.as_str()).collect();
    let d = Diagnostic::new(
        Code::UnresolvedLoop,
        format!(
            "the loop {} resolves to no loop package: not pinned by agent.lock, not installed under .agentpm/loops/{}/{}/, and no local source loops/{}/agent.json (the harness stops with `missing_loop_package`)",
            quote(&r.scoped()),
            r.owner,
            r.name,
            r.name
        ),
    );
    let d = match closest(&r.name, names.iter().copied()) {
        Some(close) => d.with_help(format!(
            "did you mean the loop `{close}`? or run `agentpm install`"
        )),
        None => d.with_help("run `agentpm install`, or add the loop's source under loops/<name>/"),
    };
    r.at.place(d)
}

/// What a resolved reference is checked for: a loop (`W102`), its bound phases (`W105`),
/// and where it came from (`W108`).
fn resolved(
    idx: &Index<'_>,
    i: usize,
    manifest: &Manifest,
    r: &PackageRef,
    j: usize,
    how: &str,
    out: &mut Vec<(usize, Diagnostic)>,
) {
    let Some(l) = idx.loop_at(j) else {
        let kind = idx.members[j].kind();
        let d = Diagnostic::new(
            Code::ResolvedNotALoop,
            format!(
                "the loop {} resolves to {}, which is {}, not a loop",
                quote(&r.scoped()),
                idx.members[j].file,
                kind.with_article()
            ),
        )
        .with_help("point `loop` at a loop package (`kind: \"loop\"`)");
        out.push((i, r.at.place(d)));
        return;
    };
    let note = Diagnostic::new(
        Code::LoopSource,
        format!("the loop {} is {how}", quote(&r.scoped())),
    );
    let mut note = r.at.place(note);
    note.labels
        .push(l.name_at(&idx.members[j].file).label("the loop"));
    out.push((i, note));
    for (phase, at) in &manifest.bound_phases {
        if l.phases.iter().any(|p| p == phase) {
            continue;
        }
        let d = Diagnostic::new(
            Code::UnknownPhaseBinding,
            format!(
                "`bindings.phases` binds `{}`, which is no phase of the loop {}; the harness ignores the binding (`unknown_phase_binding`)",
                quote(phase),
                quote(&r.scoped())
            ),
        );
        let d = match closest(phase, l.phases.iter().map(String::as_str)) {
            Some(close) => d.with_suggestion(at.replace_with(close)),
            None => d.with_help(format!(
                "the loop's phases: {}",
                l.phases
                    .iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        };
        out.push((i, at.place(d)));
    }
}
