//! `check` across files: the project of the checked files and their workspaces, its rules'
//! diagnostics located and added to the reports of the files they point into.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use anyhow::Result;

use loopconv::diag::{self, Diagnostic, Locate as _, Severity};
use loopconv::format::DocKind;
use loopconv::project::{Member, Project};
use loopconv::{LoadOptions, TreeUse};

use super::check::{CheckArgs, FileReport};
use super::io::{folder_pool, read_input};
use super::project::{context, normal, strict, workspace_of};
use super::report::{display_name, read_limits, use_color};
use super::{Global, MessageFormat};

/// Run the project's rules over the checked files (and, for context, the rest of their
/// workspaces) and add each diagnostic to the report of the file it points into. Nothing
/// is read when no file uses loops and no input is in a workspace.
pub(super) fn add_project_diagnostics(
    g: &Global,
    a: &CheckArgs,
    reports: &mut [Result<FileReport>],
) -> Result<()> {
    let roots = if a.no_workspace {
        Vec::new()
    } else {
        let mut roots: Vec<PathBuf> = a.paths().iter().filter_map(|p| workspace_of(g, p)).collect();
        roots.sort();
        roots.dedup();
        roots
    };
    let uses_loops = |r: &FileReport| {
        r.member
            .as_ref()
            .is_some_and(|m| !matches!(m.kind(), DocKind::Loop(_)))
    };
    if roots.is_empty() && !reports.iter().flatten().any(uses_loops) {
        return Ok(());
    }
    let reported: HashSet<PathBuf> = reports.iter().flatten().map(|r| normal(&r.path)).collect();
    let mut members: Vec<Member> = reports.iter_mut().flatten().filter_map(|r| r.member.take()).collect();
    members.extend(context(g, &roots, &reported, &folder_pool()?)?);
    let project = Project::new(members);
    let mut found = strict(g, project.check());
    locate(g, &project, &mut found);
    distribute(g, reports, found);
    Ok(())
}

/// Give a position to every place of `diags` that has none yet (in loops, whose trees were
/// freed): each file read again once, keeping its tree.
fn locate(g: &Global, project: &Project, diags: &mut [Diagnostic]) {
    let paths: HashMap<&str, &std::path::Path> = (project.members().iter())
        .map(|m| (m.file.as_str(), m.path.as_path()))
        .collect();
    let mut files: Vec<&str> = Vec::new();
    for d in diags.iter() {
        let places = std::iter::once(&d.location).chain(d.labels.iter().map(|l| &l.location));
        files.extend(places.filter(|l| l.pos.is_none()).map(|l| l.file.as_str()));
    }
    files.sort_unstable();
    files.dedup();
    let files: Vec<String> = files.into_iter().map(str::to_owned).collect();
    for file in files {
        let Some(path) = paths.get(file.as_str()) else { continue };
        let Ok(bytes) = read_input(path, &read_limits(g)) else { continue };
        let opts = LoadOptions {
            limits: read_limits(g),
            tree: TreeUse::Keep,
            documents: true,
            ..LoadOptions::default()
        };
        let l = loopconv::load_owned(&file, bytes, &opts);
        let Some(doc) = &l.doc else { continue };
        for d in diags.iter_mut() {
            let mut places: Vec<&mut diag::Location> = vec![&mut d.location];
            places.extend(d.labels.iter_mut().map(|l| &mut l.location));
            for at in places.into_iter().filter(|at| at.pos.is_none() && at.file == file) {
                at.pos = doc.locate(&at.pointer, at.on_key);
            }
            if d.location.file == file {
                for t in d.suggestions.iter_mut().flat_map(diag::Suggestion::targets_mut) {
                    if t.pos.is_none() {
                        let found = doc.locate_exact(&t.pointer, t.key);
                        (t.pos, t.end) = (found.map(|f| f.0), found.map(|f| f.1));
                    }
                }
            }
        }
    }
}

/// Add each diagnostic to the report of the file it points into (dropped when that file is
/// context only), sorted by position within the file.
fn distribute(g: &Global, reports: &mut [Result<FileReport>], found: Vec<Diagnostic>) {
    let mut by_file: HashMap<String, Vec<Diagnostic>> = HashMap::new();
    for d in found {
        by_file.entry(d.location.file.clone()).or_default().push(d);
    }
    let color = use_color(g);
    for r in reports.iter_mut().flatten() {
        let Some(mut diags) = by_file.remove(&display_name(g, &r.path)) else { continue };
        diags.sort_by_key(|d| (d.location.pos.map_or(0, |p| p.start), d.code));
        r.errors += diags.iter().filter(|d| d.severity == Severity::Error).count();
        r.warnings += diags.iter().filter(|d| d.severity == Severity::Warning).count();
        match g.format {
            MessageFormat::Human | MessageFormat::Markdown => {
                let reread;
                let text = match &r.text {
                    Some(t) => Some(t.as_str()),
                    None => {
                        reread = read_input(&r.path, &read_limits(g)).ok();
                        reread.as_deref().and_then(|b| std::str::from_utf8(b).ok())
                    }
                };
                r.human.push_str(&diag::render_human(&diags, text, color));
            }
            MessageFormat::Json | MessageFormat::Sarif | MessageFormat::Github => {
                r.items.extend(diags);
            }
        }
    }
}
