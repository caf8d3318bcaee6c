//! A workspace of arbitrary documents: the input, split at its NUL bytes, gives a team, a
//! loop, an Agent manifest and an `agent.lock` (each read with every document kind allowed,
//! as the project reads them); the project's rules run across them. Nothing panics, and
//! every diagnostic, and each of its labels, points into one of the documents.

use std::path::Path;

use loopconv::pipeline::{LoadOptions, load};
use loopconv::project::{Member, Project};

/// The files the parts become, in a multi-agent-spec and an AgentPM layout at once.
const FILES: [&str; 4] = [
    "/ws/specs/teams/team.json",
    "/ws/specs/loops/loop.yaml",
    "/ws/agent.json",
    "/ws/agent.lock",
];

/// One fuzz input: panics on a bug, returns on anything else.
pub fn run(data: &[u8]) {
    let opts = LoadOptions {
        tree: loopconv::front::TreeUse::Keep,
        documents: true,
        ..LoadOptions::default()
    };
    let mut trees = Vec::new();
    let mut members: Vec<Member> = Vec::new();
    for (part, file) in data.split(|&b| b == 0).zip(FILES) {
        let mut l = load(file, part, &opts);
        members.extend(Member::of(Path::new(file), &mut l));
        trees.extend(l.doc.map(|d| (file, d)));
    }
    let project = Project::new(members);
    let mut found = project.check();
    for (file, doc) in &trees {
        loopconv::project::locate(&mut found, file, doc);
    }
    for d in &found {
        let places = std::iter::once(&d.location).chain(d.labels.iter().map(|l| &l.location));
        for at in places {
            assert!(
                FILES.contains(&at.file.as_str()),
                "a place in {:?}: {d:?}",
                at.file
            );
        }
    }
}
