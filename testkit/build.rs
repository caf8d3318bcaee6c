//! The crate root of loopconv (the kit's parent folder), as `LOOPCONV_ROOT` at compile
//! time: the kit's `support::ROOT`, where every command runs.

fn main() {
    let kit = std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let root = std::path::Path::new(&kit)
        .parent()
        .expect("the kit is a folder of loopconv's repository");
    println!("cargo:rustc-env=LOOPCONV_ROOT={}", root.display());
    println!("cargo:rerun-if-changed=build.rs");
}
