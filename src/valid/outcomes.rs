//! Where each outcome of each phase declaration is, by id: a transition's `on` is looked
//! up in its phase's outcomes once per transition, by several rules. Scanning the list was
//! quadratic in a phase of many outcomes (one phase of 140,000 outcomes, 10.4 MB and
//! valid, took 138 s of `check`); a phase of few outcomes is still scanned, which is
//! cheaper than hashing.

use std::collections::HashMap;

use crate::ir::{Graph, IMPLICIT_OUTCOME, Phase};

/// A phase with more outcomes than this gets a hash index.
const SCAN_OUTCOMES: usize = 16;

/// The outcome positions of every phase declaration of a graph.
pub(crate) struct OutcomeIndex<'a> {
    /// By phase index: for a phase of many outcomes, each id's first position (hashed with
    /// a seed of the process: the ids are the file's).
    big: Vec<Option<HashMap<&'a str, usize, foldhash::fast::RandomState>>>,
}

impl<'a> OutcomeIndex<'a> {
    pub(crate) fn new(graph: &'a Graph) -> Self {
        let big = (graph.phases.iter())
            .map(|p| {
                let os = p.outcomes.as_ref()?;
                if os.len() <= SCAN_OUTCOMES {
                    return None;
                }
                let mut at = HashMap::with_capacity_and_hasher(os.len(), Default::default());
                for (i, o) in os.iter().enumerate() {
                    at.entry(o.id.as_str()).or_insert(i);
                }
                Some(at)
            })
            .collect();
        OutcomeIndex { big }
    }

    /// The position of outcome `on` among the outcomes of the phase `p`, declared at
    /// `index` (its first declaration of `on`; 0 for the implicit outcome of a phase that
    /// declares none); `None` when the phase cannot emit `on`.
    pub(crate) fn position(&self, index: usize, p: &Phase, on: &str) -> Option<usize> {
        if let Some(Some(at)) = self.big.get(index) {
            return at.get(on).copied();
        }
        match &p.outcomes {
            Some(os) => os.iter().position(|o| o.id == on),
            None => (on == IMPLICIT_OUTCOME).then_some(0),
        }
    }

    /// Whether the phase `p`, declared at `index`, can emit `on`.
    pub(crate) fn has(&self, index: usize, p: &Phase, on: &str) -> bool {
        self.position(index, p, on).is_some()
    }
}
