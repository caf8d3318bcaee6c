//! How large a piece of `src/` may grow (ARCHITECTURE.md): no file over 1,000 lines, the
//! generated tables aside, and no function over 100 lines, from its signature to its
//! closing brace (comments and attributes above it not counted). Functions are found by
//! parsing with `syn`, so a brace in a string or a comment is not counted as code.
//!
//! `FILES_OVER` and `FUNCTIONS_OVER` name what is larger today, with the work that splits
//! it: remove an entry once its piece fits, and never add one.

use std::path::Path;

use syn::visit::Visit;

use crate::layers::rust_files;

/// The most lines a file of `src/` may hold.
const FILE_LINES: usize = 1000;
/// The most lines a function may span.
const FUNCTION_LINES: usize = 100;

/// Files of `src/` that may exceed [`FILE_LINES`]: the generated tables.
const FILES_OVER: &[&str] = &[
    // Generated from `schemas/` by `front::shape::compile`.
    "front/shape/tables.rs",
];

/// Functions (`file: name`) that may exceed [`FUNCTION_LINES`]: none is left (issue 48's
/// `resolve_targets` and `enforce` were the last).
const FUNCTIONS_OVER: &[&str] = &[];

/// Every file of `src/`, as its path below `src/` with `/` and its text.
fn sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&src).expect("below src/");
            let name = rel
                .iter()
                .map(|s| s.to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            (name, std::fs::read_to_string(f).expect("a source file"))
        })
        .collect()
}

/// The functions of a file with a body: each one's name and the lines it spans.
#[derive(Default)]
struct Functions(Vec<(String, usize)>);

impl Functions {
    fn add(&mut self, name: &syn::Ident, sig: &syn::Signature, body: &syn::Block) {
        let lines = body.brace_token.span.close().end().line + 1 - sig.fn_token.span.start().line;
        self.0.push((name.to_string(), lines));
    }
}

impl<'ast> Visit<'ast> for Functions {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.add(&f.sig.ident, &f.sig, &f.block);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.add(&f.sig.ident, &f.sig, &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(body) = &f.default {
            self.add(&f.sig.ident, &f.sig, body);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }
}

fn functions(text: &str) -> Vec<(String, usize)> {
    let ast = syn::parse_file(text).expect("a source file parses");
    let mut found = Functions::default();
    found.visit_file(&ast);
    found.0
}

#[test]
fn no_file_of_src_is_over_1000_lines() {
    let over: Vec<String> = sources()
        .into_iter()
        .map(|(name, text)| (name, text.lines().count()))
        .filter(|(name, n)| *n > FILE_LINES && !FILES_OVER.contains(&name.as_str()))
        .map(|(name, n)| format!("src/{name}: {n} lines"))
        .collect();
    assert!(over.is_empty(), "split by concern:\n{}", over.join("\n"));
}

#[test]
fn no_function_of_src_is_over_100_lines() {
    let mut over = Vec::new();
    for (name, text) in sources() {
        for (function, n) in functions(&text) {
            let known = format!("{name}: {function}");
            if n > FUNCTION_LINES && !FUNCTIONS_OVER.contains(&known.as_str()) {
                over.push(format!("src/{known}: {n} lines"));
            }
        }
    }
    assert!(
        over.is_empty(),
        "split by responsibility:\n{}",
        over.join("\n")
    );
}

/// The count is of code: a brace in a string or a comment, which a text search would take
/// for one, changes nothing, and the doc comment above a function is not counted.
#[test]
fn a_function_is_measured_from_its_signature_to_its_closing_brace() {
    let text = "/// doc\n/// more\n#[inline]\nfn a() {\n    let s = \"}}}\";\n    // {\n}\n\
                impl T {\n    fn b(&self) -> u8 {\n        1\n    }\n}\n";
    assert_eq!(functions(text), [("a".to_owned(), 4), ("b".to_owned(), 3)]);
}
