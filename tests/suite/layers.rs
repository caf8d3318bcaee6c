//! The module graph has no cycle: data flows one way (ARCHITECTURE.md).
//!
//! Every `crate::…`, `super::…` and `self::…` path in the code of `src/`, parsed with `syn`
//! (comments, strings and `#[cfg(test)]` items left out: tests sit above every layer), and
//! every path a `use` tree expands to, is resolved to
//! the deepest module it names. An edge between a module and one of its own ancestors is
//! containment, not an import, and is not counted; any other edge is lifted to the two
//! sibling modules under the lowest common ancestor (`back::dot -> ir::fixed` counts as
//! `back -> ir`). At every level of the tree the siblings must form a directed acyclic
//! graph, so no module imports a module that imports it back, directly or through others.
//! The binaries (`src/main.rs` and `src/cli/`; `src/mcp_main.rs` and `src/mcp/`, which use
//! `cli` too) are checked the same way, as one crate of their own.
//!
//! And no file of `src/`, the tests or the benches imports by glob (`no_glob_imports`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Every `.rs` file below `dir`, sorted.
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module a file defines: `src/a/b.rs` and `src/a/b/mod.rs` are `a::b`.
fn module_of(root: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(root).expect("below the root");
    let mut parts: Module = rel
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// Whether an item carries `#[cfg(test)]`.
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

/// Every path a file's code names (the full paths of its `use` trees, and every other
/// path), leaving out `#[cfg(test)]` items. Comments and strings are not code to `syn`.
#[derive(Default)]
struct Paths(Vec<Vec<String>>);

impl Paths {
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        let depth = prefix.len();
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
            }
            syn::UseTree::Name(n) => {
                if n.ident != "self" {
                    prefix.push(n.ident.to_string());
                }
                self.0.push(prefix.clone());
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                self.0.push(prefix.clone());
            }
            syn::UseTree::Glob(_) => self.0.push(prefix.clone()),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
        prefix.truncate(depth);
    }
}

impl<'ast> syn::visit::Visit<'ast> for Paths {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Static(s) => &s.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_test(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &u.tree);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.0
            .push(p.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        // Paths inside macro calls (`format!("{}", crate::x::y())`) are code too.
        if let Ok(exprs) = m.parse_body_with(
            syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
        ) {
            for e in &exprs {
                self.visit_expr(e);
            }
        }
        syn::visit::visit_macro(self, m);
    }
}

/// The modules a file declares as `#[cfg(test)] mod name;`, whose own files are test code.
fn test_modules_declared(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).expect("a source file");
    let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    ast.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) if m.content.is_none() && is_test(&m.attrs) => {
                Some(m.ident.to_string())
            }
            _ => None,
        })
        .collect()
}

fn paths_in(file: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(file).expect("a source file");
    let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut paths = Paths::default();
    syn::visit::Visit::visit_file(&mut paths, &ast);
    paths.0
}

/// The deepest module a path names, from the module `from`, if it names one of the crate's.
fn resolve(path: &[String], from: &Module, modules: &BTreeSet<Module>) -> Option<Module> {
    let mut base: Module = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        Some("super") | Some("self") => from.clone(),
        _ => return None,
    };
    let mut rest = path;
    while let Some(seg) = rest.first() {
        match seg.as_str() {
            "crate" => {}
            "self" => {}
            "super" => {
                base.pop();
            }
            _ => break,
        }
        rest = &rest[1..];
    }
    for seg in rest {
        let mut next = base.clone();
        next.push(seg.clone());
        if !modules.contains(&next) {
            break;
        }
        base = next;
    }
    Some(base)
}

/// The edge `from -> to` lifted to the siblings under their lowest common ancestor, or
/// `None` for an edge to an ancestor or a descendant.
fn lift(from: &Module, to: &Module) -> Option<(Module, String, String)> {
    let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    let (a, b) = (from.get(common)?, to.get(common)?);
    Some((from[..common].to_vec(), a.clone(), b.clone()))
}

/// The module graph of a crate rooted at `root_file`'s folder, as sibling edges per parent.
type Levels = BTreeMap<Module, BTreeMap<String, BTreeSet<String>>>;

fn sibling_edges(
    files: &[PathBuf],
    root: &Path,
) -> (Levels, BTreeMap<(Module, String, String), String>) {
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(root, f)).collect();
    let test_modules: Vec<Module> = files
        .iter()
        .flat_map(|f| {
            let parent = module_of(root, f);
            test_modules_declared(f).into_iter().map(move |name| {
                let mut m = parent.clone();
                m.push(name);
                m
            })
        })
        .collect();
    let mut levels = Levels::new();
    let mut witness = BTreeMap::new();
    for file in files {
        let from = module_of(root, file);
        if test_modules.iter().any(|t| from.starts_with(t)) {
            continue;
        }
        for path in paths_in(file) {
            let Some(to) = resolve(&path, &from, &modules) else {
                continue;
            };
            if let Some((parent, a, b)) = lift(&from, &to) {
                levels
                    .entry(parent.clone())
                    .or_default()
                    .entry(a.clone())
                    .or_default()
                    .insert(b.clone());
                witness
                    .entry((parent, a, b))
                    .or_insert_with(|| format!("{} names {}", file.display(), path.join("::")));
            }
        }
    }
    (levels, witness)
}

/// A cycle in one level's graph, as the list of its modules, if there is one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_owned(), 1);
        stack.push(n.to_owned());
        for m in graph.get(n).into_iter().flatten() {
            match state.get(m.as_str()).copied().unwrap_or(0) {
                1 => {
                    let at = stack.iter().position(|s| s == m).expect("on the stack");
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(m, graph, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.to_owned(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0
            && let Some(c) = visit(n, graph, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

/// Every cycle found, one line each, with the file that makes each edge.
fn cycles_of_crate(root: &Path, files: &[PathBuf]) -> Vec<String> {
    let (levels, witness) = sibling_edges(files, root);
    let mut problems = Vec::new();
    for (parent, graph) in &levels {
        if let Some(cycle) = find_cycle(graph) {
            let edges: Vec<String> = cycle
                .windows(2)
                .map(|w| witness[&(parent.clone(), w[0].clone(), w[1].clone())].clone())
                .collect();
            let name = if parent.is_empty() {
                "crate".to_owned()
            } else {
                parent.join("::")
            };
            problems.push(format!(
                "in `{name}`: {} ({})",
                cycle.join(" -> "),
                edges.join("; ")
            ));
        }
    }
    problems
}

fn crate_files() -> (Vec<PathBuf>, Vec<PathBuf>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    rust_files(&src, &mut all);
    let is_bin = |p: &PathBuf| {
        p.starts_with(src.join("cli"))
            || p.starts_with(src.join("mcp"))
            || p.ends_with("main.rs")
            || p.ends_with("mcp_main.rs")
    };
    let (bin, lib): (Vec<_>, Vec<_>) = all.into_iter().partition(is_bin);
    (lib, bin)
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (lib, bin) = crate_files();
    assert!(lib.len() > 30 && bin.len() > 5, "the source tree was found");
    // The checker sees the edges it must see (it is not vacuous).
    let (levels, _) = sibling_edges(&lib, &src);
    for (a, b) in [
        ("pipeline", "front"),
        ("pipeline", "back"),
        ("front", "ir"),
        ("back", "valid"),
        ("dot", "support"),
    ] {
        let found = levels
            .values()
            .any(|g| g.get(a).is_some_and(|to| to.contains(b)));
        assert!(found, "no edge {a} -> {b} found: {levels:#?}");
    }
    let mut problems = cycles_of_crate(&src, &lib);
    problems.extend(cycles_of_crate(&src, &bin));
    assert!(
        problems.is_empty(),
        "import cycles:\n{}",
        problems.join("\n")
    );
}

/// Imports that never happen, though no cycle would forbid them: the layers of
/// ARCHITECTURE.md, a module on the left never naming a module on the right (at the top of
/// the library).
const NEVER: &[(&str, &[&str])] = &[
    (
        "format",
        &[
            "tree", "ir", "model", "front", "valid", "analysis", "back", "pipeline",
        ],
    ),
    (
        "pointer",
        &[
            "tree", "ir", "model", "front", "valid", "analysis", "back", "pipeline",
        ],
    ),
    (
        "text",
        &[
            "tree", "ir", "model", "front", "valid", "analysis", "back", "pipeline",
        ],
    ),
    (
        "tree",
        &[
            "ir", "model", "front", "valid", "analysis", "back", "pipeline",
        ],
    ),
    (
        "ir",
        &["tree", "front", "valid", "analysis", "back", "pipeline"],
    ),
    ("front", &["valid", "analysis", "back", "pipeline"]),
    ("valid", &["front", "analysis", "back", "pipeline"]),
    ("back", &["front", "pipeline"]),
];

#[test]
fn no_layer_imports_what_it_never_may() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (lib, _) = crate_files();
    let (levels, witness) = sibling_edges(&lib, &src);
    let top = levels.get(&Vec::new()).expect("the crate's top level");
    // The check is not vacuous: allowed edges are seen.
    assert!(
        top.get("front").is_some_and(|to| to.contains("tree")),
        "{top:#?}"
    );
    let mut problems = Vec::new();
    for (from, never) in NEVER {
        for to in *never {
            if top.get(*from).is_some_and(|t| t.contains(*to)) {
                let key = (Vec::new(), (*from).to_owned(), (*to).to_owned());
                problems.push(format!("{from} -> {to}: {}", witness[&key]));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "forbidden imports:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_checker_finds_a_cycle_and_ignores_comments_strings_and_tests() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("a")).expect("mkdir");
    let write = |p: &str, s: &str| std::fs::write(root.join(p), s).expect("write");
    write("lib.rs", "pub mod a;\npub mod b;\npub mod c;\n");
    write("a/mod.rs", "pub mod x;\nuse crate::b::Thing;\n");
    write("a/x.rs", "fn f() { super::y(); }\n");
    write(
        "b.rs",
        "// use crate::c;\nconst S: &str = \"crate::c::z\";\nuse crate::{c::{self, W}};\n",
    );
    write(
        "c.rs",
        "fn g() { crate::a::x::h(); }\n#[cfg(test)]\nmod tests { use crate::b; }\n",
    );
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let problems = cycles_of_crate(root, &files);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("in `crate`: a -> b -> c -> a"),
        "{problems:?}"
    );
    // Without the edge from c, nothing: the comment, the string and the test module of
    // b and c name modules too, but are not imports.
    write(
        "c.rs",
        "fn g() {}\n#[cfg(test)]\nmod tests { use crate::a; }\n",
    );
    write(
        "b.rs",
        "// use crate::a;\nconst S: &str = \"crate::a::z\";\nuse crate::{c::{self, W}};\n",
    );
    let problems = cycles_of_crate(root, &files);
    assert!(problems.is_empty(), "{problems:?}");
    // A test module in a file of its own is test code too.
    write("c.rs", "fn g() {}\n#[cfg(test)]\nmod tests;\n");
    std::fs::create_dir_all(root.join("c")).expect("mkdir");
    write("c/tests.rs", "use crate::a;\n");
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let problems = cycles_of_crate(root, &files);
    assert!(problems.is_empty(), "{problems:?}");
    write("c/tests.rs", "");
    write("c.rs", "pub mod inner;\n");
    write("c/inner.rs", "use crate::a;\n");
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let problems = cycles_of_crate(root, &files);
    assert_eq!(
        problems.len(),
        1,
        "a module that is not a test module counts: {problems:?}"
    );
}

/// Files that still hold a glob import, each in the files of another issue: remove an
/// entry once its globs are gone, and never add one.
const GLOBS_LEFT: &[&str] = &[
    // Issue 50 (the diff): `use Impact::*` in four functions.
    "src/analysis/diff.rs",
];

/// Whether a `use` tree imports by glob anywhere.
fn has_glob(tree: &syn::UseTree) -> bool {
    match tree {
        syn::UseTree::Glob(_) => true,
        syn::UseTree::Path(p) => has_glob(&p.tree),
        syn::UseTree::Group(g) => g.items.iter().any(has_glob),
        syn::UseTree::Name(_) | syn::UseTree::Rename(_) => false,
    }
}

/// The glob imports of a file, test modules included.
#[derive(Default)]
struct Globs(usize);

impl<'ast> syn::visit::Visit<'ast> for Globs {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if has_glob(&u.tree) {
            self.0 += 1;
        }
    }
}

/// Every name a module uses is named where it comes from: no `use …::*` in `src/`, the
/// tests, the benches or the test kit, so that a reader (and a search) finds each name's
/// home.
#[test]
fn no_glob_imports() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches", "testkit"] {
        rust_files(&root.join(dir), &mut files);
    }
    let mut found = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(root)
            .expect("below the crate")
            .to_string_lossy();
        let rel = rel.replace('\\', "/");
        if GLOBS_LEFT.contains(&rel.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("a source file");
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let mut globs = Globs::default();
        syn::visit::Visit::visit_file(&mut globs, &ast);
        if globs.0 > 0 {
            found.push(format!("{rel}: {} glob import(s)", globs.0));
        }
    }
    assert!(found.is_empty(), "name each import:\n{}", found.join("\n"));
}
