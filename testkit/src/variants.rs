//! Every back end of `Target::ALL` in every variant of its options (Mermaid in each style,
//! DOT with and without a legend, the schema of each format), for the suite, the benches
//! and the fuzz bodies alike: one list, with no command-line crate.

use loopconv::back::{self, mermaid::Style};
use loopconv::{Format, Target};

/// Each target with a label for each variant of its options and the options (an exhaustive
/// match: a new back end must be added here).
pub fn variants(base: &back::Options) -> Vec<(Target, String, back::Options)> {
    let mut out = Vec::new();
    for target in Target::ALL {
        let mut one = |label: String, opts: back::Options| out.push((target, label, opts));
        match target {
            Target::Mermaid => {
                // Every style the CLI offers (`graph --style`).
                for style in Style::ALL {
                    let opts = back::Options {
                        style,
                        ..base.clone()
                    };
                    one(format!("mermaid {}", style.name()), opts);
                }
            }
            Target::Dot => {
                for legend in [false, true] {
                    let label = if legend { "dot legend" } else { "dot" }.to_owned();
                    one(
                        label,
                        back::Options {
                            legend,
                            ..base.clone()
                        },
                    );
                }
            }
            Target::Schema => {
                for f in Format::ALL {
                    let opts = back::Options {
                        schema: Some(f),
                        ..base.clone()
                    };
                    one(format!("schema {}", f.name()), opts);
                }
            }
            Target::Loop(Format::Ir)
            | Target::Loop(Format::Agentpm)
            | Target::Loop(Format::Mas)
            | Target::Loop(Format::Xstate)
            | Target::PlantUml
            | Target::Markdown
            | Target::LangGraph => {
                one(target.name().to_owned(), base.clone());
            }
        }
    }
    out
}
