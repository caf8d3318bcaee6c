//! Loops drawn from a seeded random distribution over their shape (issue 50), so that no
//! benchmark run measures only the shapes the code was tuned on: every parameter below
//! is drawn from the seed ([`Draw::new`]), and `scripts/bench.sh` draws a new seed on
//! every run (and prints it) unless one is given.
//!
//! The parameters: the length of objectives and outcome descriptions (and whether they
//! hold non-ASCII text and escapes), the length and alphabet of phase, outcome and
//! checkpoint ids (letters, letters and digits, hyphenated words; up to 64 characters,
//! so beyond the tree's 21 bytes held in place), how many outcomes a phase has (and how
//! many phases have none: the implicit `complete`), how many of the other outcomes are
//! self-loops, how dense checkpoints are, an error policy, access and limits or not, the
//! order of every object's keys (authored, sorted, reversed, shuffled) and of the
//! transitions, the layout (minified, 1-8 spaces, tabs), `$schema` or not, and errors in
//! 1 % of the phases or not. The same seed always gives the same bytes.

use std::fmt::Write as _;

use super::shapes::{Json, KeyOrder, Layout};
use super::{Rng, SCHEMA, words};

/// The characters of a drawn id.
#[derive(Clone, Copy, Debug)]
pub enum Alphabet {
    /// `a-z`.
    Letters,
    /// `a-z0-9`, a letter first.
    Alnum,
    /// Words of `a-z0-9` joined by single hyphens.
    Hyphenated,
}

/// The order of an object's keys.
#[derive(Clone, Copy, Debug)]
pub enum Order {
    /// As written by [`KeyOrder`] (authored, sorted or reversed).
    Written(KeyOrder),
    /// One random order of each object's keys for the whole file (as one tool writes it).
    Shuffled,
}

/// The shape parameters of one drawn loop.
#[derive(Clone, Debug)]
pub struct Draw {
    pub seed: u64,
    pub objective_words: (usize, usize),
    pub description_words: (usize, usize),
    pub rich_text: bool,
    /// The length of a phase id (at least what the index needs, at most 64).
    pub id_len: usize,
    pub outcome_id_len: usize,
    pub alphabet: Alphabet,
    /// Phases without outcomes, per thousand.
    pub implicit_per_mille: usize,
    /// Outcomes of a phase that has some: 1 to this many.
    pub max_outcomes: usize,
    /// Outcomes after the first that go back to their own phase, per cent.
    pub self_loop_percent: usize,
    /// A checkpoint before every `checkpoint_every`-th phase (0: none) ...
    pub checkpoint_every: usize,
    /// ... this many before each.
    pub checkpoints_per_phase: usize,
    pub policy: bool,
    pub access: bool,
    pub limits: bool,
    pub order: Order,
    pub transitions_shuffled: bool,
    pub layout: Layout,
    /// `$schema` given (otherwise one `F012` warning).
    pub schema: bool,
    /// An error in 1 % of the phases: a transition from an undeclared phase (one `V`
    /// error each, which cuts no run).
    pub errors: bool,
}

impl Draw {
    /// The parameters drawn from `seed`.
    pub fn new(seed: u64) -> Draw {
        let mut rng = Rng::new(seed ^ 0x5EED_0F50);
        let mut range = |lo: usize, hi: usize| lo + rng.below(hi - lo + 1);
        let objective_min = range(1, 120);
        let objective_max = objective_min + range(0, 120);
        let description_min = range(1, 40);
        let description_max = description_min + range(0, 40);
        let id_len = match range(0, 2) {
            0 => range(2, 8),
            1 => range(9, 21),
            _ => range(22, 64),
        };
        let outcome_id_len = range(3, 40);
        let alphabet = [Alphabet::Letters, Alphabet::Alnum, Alphabet::Hyphenated][range(0, 2)];
        let implicit_per_mille = [0, 0, range(1, 500), 1000][range(0, 3)];
        let max_outcomes = range(1, 8);
        let self_loop_percent = [0, range(0, 100), 100][range(0, 2)];
        let checkpoint_every = [0, 1, range(2, 50)][range(0, 2)];
        let checkpoints_per_phase = range(1, 3);
        let policy = range(0, 1) == 1;
        let access = range(0, 1) == 1;
        let limits = range(0, 1) == 1;
        let order = match range(0, 3) {
            0 => Order::Written(KeyOrder::Authored),
            1 => Order::Written(KeyOrder::Alphabetical),
            2 => Order::Written(KeyOrder::Reversed),
            _ => Order::Shuffled,
        };
        let transitions_shuffled = range(0, 3) == 0;
        let layout = match range(0, 3) {
            0 => Layout::Minified,
            1 => Layout::Tabs,
            _ => Layout::Spaces(range(1, 8)),
        };
        let schema = range(0, 1) == 1;
        let errors = range(0, 2) == 0;
        Draw {
            seed,
            objective_words: (objective_min, objective_max),
            description_words: (description_min, description_max),
            rich_text: range(0, 2) == 0,
            id_len,
            outcome_id_len,
            alphabet,
            implicit_per_mille,
            max_outcomes,
            self_loop_percent,
            checkpoint_every,
            checkpoints_per_phase,
            policy,
            access,
            limits,
            order,
            transitions_shuffled,
            layout,
            schema,
            errors,
        }
    }

    /// The same shape without `$schema` and without errors (the issue's "without
    /// `$schema`" rows: one `F012` warning and nothing else).
    pub fn warn(&self) -> Draw {
        Draw {
            schema: false,
            errors: false,
            ..self.clone()
        }
    }

    /// The same shape without errors, `$schema` as drawn (the first loop of `diff`).
    pub fn valid(&self) -> Draw {
        Draw {
            errors: false,
            ..self.clone()
        }
    }

    /// A loop of `phases` phases of this shape, named `name`.
    pub fn loop_text(&self, name: &str, phases: usize) -> String {
        self.build(name, phases, None)
    }

    /// [`Draw::loop_text`] with changes for `diff`, drawn from the seed too: 1-100 phases
    /// changed (an objective reworded, the last of several outcomes retargeted, or
    /// removed with its transition, the checkpoints before it removed), and
    /// `max_steps` raised when there are limits.
    pub fn changed_text(&self, name: &str, phases: usize) -> String {
        self.build(name, phases, Some(Rng::new(self.seed ^ 0xD1FF)))
    }

    fn build(&self, name: &str, phases: usize, mut change: Option<Rng>) -> String {
        let phases = phases.max(2);
        let mut rng = Rng::new(self.seed);
        let width = digits(phases, self.base());
        let phase_ids = Ids::new(&mut rng, self.alphabet, self.id_len, width);
        let outcome_ids: Vec<String> = {
            let ids = Ids::new(&mut rng, self.alphabet, self.outcome_id_len, 1);
            (0..self.max_outcomes).map(|k| ids.make(k)).collect()
        };
        let gate_ids = Ids::new(
            &mut rng,
            self.alphabet,
            self.id_len,
            digits(phases * self.checkpoints_per_phase, self.base()),
        );
        // Which phases change (the diff's second loop), and how.
        let changes = change.as_mut().map(|c| {
            let n = 1 + c.below(100);
            let mut at = vec![None; phases];
            for _ in 0..n {
                let i = 1 + c.below(phases - 1);
                at[i] = Some(c.below(4));
            }
            at
        });
        let kind = |i: usize| changes.as_ref().and_then(|c| c[i]);
        let mut list = Vec::with_capacity(phases);
        let mut transitions = Vec::with_capacity(phases * 3);
        for i in 0..phases {
            let id = phase_ids.make(i);
            let next = if i + 1 < phases {
                phase_ids.make(i + 1)
            } else {
                "$end".to_owned()
            };
            let mut objective = self.text(&mut rng, self.objective_words);
            if kind(i) == Some(0) {
                objective.insert_str(0, "Reworded: ");
            }
            let mut members = vec![
                ("id", Json::Str(id.clone())),
                ("objective", Json::Str(objective)),
            ];
            if self.access {
                let memory = self.obj(vec![
                    ("read", Json::Bool(true)),
                    ("write", Json::Bool(i % 2 == 0)),
                ]);
                members.push((
                    "access",
                    self.obj(vec![
                        ("tools", Json::Bool(i % 3 != 0)),
                        ("knowledge", Json::Bool(true)),
                        ("memory", memory),
                    ]),
                ));
            }
            let implicit = rng.below(1000) < self.implicit_per_mille;
            let mut count = if implicit {
                0
            } else {
                1 + rng.below(self.max_outcomes)
            };
            if kind(i) == Some(2) && count > 1 {
                count -= 1;
            }
            let mut outcomes = Vec::with_capacity(count);
            for (k, outcome) in outcome_ids.iter().enumerate().take(count) {
                let description = self.text(&mut rng, self.description_words);
                outcomes.push(self.obj(vec![
                    ("id", Json::Str(outcome.clone())),
                    ("description", Json::Str(description)),
                ]));
                let to = if k == 0 {
                    next.clone()
                } else if rng.below(100) < self.self_loop_percent {
                    id.clone()
                } else {
                    match rng.below(3) {
                        0 => "$handoff".to_owned(),
                        1 => "$abort".to_owned(),
                        _ => phase_ids.make(i.saturating_sub(1 + rng.below(5))),
                    }
                };
                // The last outcome but the first (which keeps the chain to `$end`).
                let to = if kind(i) == Some(1) && k > 0 && k == count - 1 {
                    phase_ids.make(i / 2)
                } else {
                    to
                };
                transitions.push(self.transition(&id, outcome, to));
            }
            if count == 0 {
                transitions.push(self.transition(&id, "complete", next.clone()));
            } else {
                members.push(("outcomes", Json::Arr(outcomes)));
            }
            if self.errors && i % 100 == 50 {
                transitions.push(self.transition(&format!("missing-{i}"), "complete", id.clone()));
            }
            list.push(self.obj(members));
        }
        if self.transitions_shuffled {
            for k in (1..transitions.len()).rev() {
                transitions.swap(k, rng.below(k + 1));
            }
        }
        let mut gates = Vec::new();
        if self.checkpoint_every > 0 {
            for i in (1..phases).step_by(self.checkpoint_every) {
                if kind(i) == Some(3) {
                    continue;
                }
                for k in 0..self.checkpoints_per_phase {
                    let on_reject = if k == 0 {
                        "$abort".to_owned()
                    } else {
                        phase_ids.make(i - 1)
                    };
                    gates.push(self.obj(vec![
                        (
                            "id",
                            Json::Str(gate_ids.make(i * self.checkpoints_per_phase + k)),
                        ),
                        ("type", Json::Str("approval".to_owned())),
                        ("before_phase", Json::Str(phase_ids.make(i))),
                        ("on_reject", Json::Str(on_reject)),
                    ]));
                }
            }
        }
        let mut body = vec![
            ("archetype", Json::Str("generated".to_owned())),
            ("entry_phase", Json::Str(phase_ids.make(0))),
        ];
        if self.policy {
            let tool = self.obj(vec![
                ("action", Json::Str("retry".to_owned())),
                ("max_retries", Json::Num(2)),
                ("on_exhausted", Json::Str("fail_phase".to_owned())),
            ]);
            let phase = self.obj(vec![("action", Json::Str("handoff".to_owned()))]);
            body.push((
                "error_policy",
                self.obj(vec![("tool_failure", tool), ("phase_failure", phase)]),
            ));
        }
        if self.limits {
            let steps = phases * if change.is_some() { 4 } else { 3 };
            body.push(("limits", self.obj(vec![("max_steps", Json::Num(steps))])));
        }
        body.push(("phases", Json::Arr(list)));
        body.push(("transitions", Json::Arr(transitions)));
        body.push(("checkpoints", Json::Arr(gates)));
        let mut top = Vec::new();
        if self.schema {
            top.push(("$schema", Json::Str(SCHEMA.to_owned())));
        }
        top.push(("kind", Json::Str("loop".to_owned())));
        top.push(("name", Json::Str(name.to_owned())));
        top.push(("version", Json::Str("1.0.0".to_owned())));
        top.push((
            "description",
            Json::Str(format!(
                "A loop of {phases} phases drawn from seed {}.",
                self.seed
            )),
        ));
        top.push(("loop", self.obj(body)));
        let order = match self.order {
            Order::Written(order) => order,
            Order::Shuffled => KeyOrder::Authored,
        };
        self.obj(top).to_json(order, self.layout)
    }

    fn base(&self) -> usize {
        match self.alphabet {
            Alphabet::Letters => 26,
            _ => 36,
        }
    }

    fn transition(&self, from: &str, on: &str, to: String) -> Json {
        self.obj(vec![
            ("from", Json::Str(from.to_owned())),
            ("on", Json::Str(on.to_owned())),
            ("to", Json::Str(to)),
        ])
    }

    /// An object, its keys in this file's shuffled order when the order is
    /// [`Order::Shuffled`] (a rank drawn for each key name from the seed).
    fn obj(&self, mut members: Vec<(&'static str, Json)>) -> Json {
        if let Order::Shuffled = self.order {
            let rank = |key: &str| {
                let mut h = self.seed ^ 0xC0FF_EE00;
                for b in key.bytes() {
                    h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3);
                }
                Rng::new(h).next()
            };
            members.sort_by_key(|m| rank(m.0));
        }
        Json::Obj(members)
    }

    /// A text of `range` words (non-ASCII words and escapes mixed in when `rich_text`).
    fn text(&self, rng: &mut Rng, range: (usize, usize)) -> String {
        const RICH: &[&str] = &[
            "naïve",
            "Größe",
            "日本語",
            "\"quoted\"",
            "C:\\path",
            "tab\there",
            "🚀",
        ];
        let n = range.0 + rng.below(range.1 - range.0 + 1);
        let mut s = words(rng, n);
        if self.rich_text {
            for _ in 0..n / 8 {
                let _ = write!(s, " {}", RICH[rng.below(RICH.len())]);
            }
        }
        s
    }

    /// The parameters, one line (printed beside the seed).
    pub fn describe(&self) -> String {
        format!("{self:?}")
    }
}

/// How many digits of `base` number `n` values.
fn digits(n: usize, base: usize) -> usize {
    let mut width = 1;
    let mut reach = base;
    while reach < n {
        width += 1;
        reach *= base;
    }
    width
}

/// Unique ids of one kind: a drawn prefix, then the index in `width` digits.
struct Ids {
    prefix: String,
    alphabet: Alphabet,
    width: usize,
}

impl Ids {
    fn new(rng: &mut Rng, alphabet: Alphabet, len: usize, width: usize) -> Ids {
        const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
        const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
        let len = len.clamp(width + 1, 64);
        let mut prefix = String::new();
        let mut segment = 0;
        while prefix.len() < len - width {
            let c = if prefix.is_empty() || matches!(alphabet, Alphabet::Letters) {
                LETTERS[rng.below(26)]
            } else {
                ALNUM[rng.below(36)]
            };
            prefix.push(c as char);
            segment += 1;
            let room = len - width - prefix.len();
            if matches!(alphabet, Alphabet::Hyphenated)
                && segment >= 3
                && room > 1
                && rng.below(4) == 0
            {
                prefix.push('-');
                segment = 0;
            }
        }
        Ids {
            prefix,
            alphabet,
            width,
        }
    }

    fn make(&self, i: usize) -> String {
        const DIGITS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
        let base = match self.alphabet {
            Alphabet::Letters => 26,
            _ => 36,
        };
        let mut code = vec![b'a'; self.width];
        let mut n = i;
        for slot in code.iter_mut().rev() {
            *slot = DIGITS[n % base];
            n /= base;
        }
        let mut id = self.prefix.clone();
        id.push_str(std::str::from_utf8(&code).expect("ASCII"));
        id
    }
}
