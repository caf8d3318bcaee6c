//! Work over many items in parallel chunks with the results in item order: how a large
//! diagram is built and written on every core while its output stays byte-identical to a
//! run on one. Below [`PARALLEL_MIN`] items everything runs on the calling thread, so a
//! small loop never starts the thread pool (start-up stays tiny).

use rayon::prelude::{IntoParallelIterator, ParallelIterator};
use std::ops::Range;

/// Fewer items than this are handled on the calling thread.
pub const PARALLEL_MIN: usize = 2048;

/// The item ranges of `n` items as chunks, a few per thread so that uneven items balance.
fn ranges(n: usize) -> Vec<Range<usize>> {
    let chunks = (rayon::current_num_threads() * 4).clamp(1, n.max(1));
    let size = n.div_ceil(chunks).max(1);
    (0..n).step_by(size).map(|s| s..(s + size).min(n)).collect()
}

/// How many of `n` items the calling thread handles in place, straight into the result
/// (its share of the threads), while the others take the rest in chunks: the rest is then
/// copied once, not the whole.
fn in_place_share(n: usize) -> usize {
    n / rayon::current_num_threads().max(1)
}

/// `add(i, out)` for each item `i` of `0..n`, in order, each pushing what item `i` gives
/// (nothing, one value or several): every value in one vector, in item order. `values`
/// is about how many values there are in all, to size the vectors once (a list of
/// drawing nodes grown past its size was copied whole into a block twice as large).
pub fn collect<T: Send>(
    n: usize,
    values: usize,
    add: impl Fn(usize, &mut Vec<T>) + Sync,
) -> Vec<T> {
    let mut out = Vec::with_capacity(values);
    if n < PARALLEL_MIN {
        (0..n).for_each(|i| add(i, &mut out));
        return out;
    }
    let first = in_place_share(n);
    let ((), parts) = rayon::join(
        || (0..first).for_each(|i| add(i, &mut out)),
        || {
            ranges(n - first)
                .into_par_iter()
                .map(|r| {
                    let share = r.len().saturating_mul(values).div_ceil(n);
                    let mut part = Vec::with_capacity(share);
                    r.for_each(|i| add(first + i, &mut part));
                    part
                })
                .collect::<Vec<Vec<T>>>()
        },
    );
    out.reserve(parts.iter().map(Vec::len).sum());
    parts.into_iter().for_each(|p| out.extend(p));
    out
}

/// The text a back end writes, held whole ([`Output::held`]) or handed to a writer as it
/// grows ([`Output::streamed`]): a streamed drawing holds a round of items at a time, not
/// its whole text (which was the largest part of the peak memory of drawing a loop of
/// short texts). It dereferences to the `String` being written, so writers that take a
/// `&mut String` write into it.
pub struct Output<'w> {
    text: String,
    sink: Option<&'w mut dyn std::io::Write>,
    /// The first error of the sink; nothing is written after it.
    failed: Option<std::io::Error>,
}

/// Text held before it is handed to a streamed output's writer.
const STREAM_AT: usize = 1 << 16;

/// Items written between two hand-overs of a streamed output (a few chunks per thread).
const ROUND: usize = 2 * PARALLEL_MIN;

impl<'w> Output<'w> {
    /// An output held whole, of about `size` bytes.
    pub fn held(size: usize) -> Output<'static> {
        Output {
            text: String::with_capacity(size),
            sink: None,
            failed: None,
        }
    }

    /// An output handed to `sink` as it is written.
    pub fn streamed(sink: &'w mut dyn std::io::Write) -> Output<'w> {
        Output {
            text: String::with_capacity(2 * STREAM_AT),
            sink: Some(sink),
            failed: None,
        }
    }

    /// Between two items: a streamed output hands what is written to its sink when it is
    /// worth a write.
    pub fn item_written(&mut self) {
        self.hand_over(false);
    }

    /// Hand the text written so far to the sink, if there is one and it is worth a write
    /// (`all`: whatever its size).
    fn hand_over(&mut self, all: bool) {
        let Some(sink) = self.sink.as_mut() else {
            return;
        };
        if self.text.len() < STREAM_AT && !all {
            return;
        }
        if self.failed.is_none()
            && let Err(e) = sink.write_all(self.text.as_bytes())
        {
            self.failed = Some(e);
        }
        self.text.clear();
    }

    /// The whole text of a held output (what is left of a streamed one).
    pub fn into_text(self) -> String {
        self.text
    }

    /// Hand the rest of a streamed output to its sink: the first error of the sink, if any.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.hand_over(true);
        match self.failed {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl std::ops::Deref for Output<'_> {
    type Target = String;
    fn deref(&self) -> &String {
        &self.text
    }
}

impl std::ops::DerefMut for Output<'_> {
    fn deref_mut(&mut self) -> &mut String {
        &mut self.text
    }
}

/// `write(i, out)` for each item `i` of `0..n`, in order, appended to `out`; a streamed
/// output is handed over after each round of a few thousand items. `item_size` is about how
/// many bytes an item writes, to size each chunk's text once.
pub fn write_items(
    n: usize,
    out: &mut Output,
    item_size: usize,
    write: impl Fn(usize, &mut String) + Sync,
) {
    if out.sink.is_none() {
        return write_range(0..n, &mut out.text, item_size, &write);
    }
    for start in (0..n).step_by(ROUND) {
        write_range(
            start..(start + ROUND).min(n),
            &mut out.text,
            item_size,
            &write,
        );
        out.hand_over(false);
    }
}

/// [`write_items`] of the items `items`, appended to `out`.
fn write_range(
    items: Range<usize>,
    out: &mut String,
    item_size: usize,
    write: &(impl Fn(usize, &mut String) + Sync),
) {
    if items.len() < PARALLEL_MIN {
        items.for_each(|i| write(i, out));
        return;
    }
    let (start, n) = (items.start, items.len());
    let first = in_place_share(n);
    let ((), parts) = rayon::join(
        || (start..start + first).for_each(|i| write(i, out)),
        || {
            ranges(n - first)
                .into_par_iter()
                .map(|r| {
                    let mut part = String::with_capacity(r.len().saturating_mul(item_size));
                    r.for_each(|i| write(start + first + i, &mut part));
                    part
                })
                .collect::<Vec<String>>()
        },
    );
    out.reserve(parts.iter().map(String::len).sum());
    parts.into_iter().for_each(|p| out.push_str(&p));
}

#[cfg(test)]
mod tests {

    use super::{Output, PARALLEL_MIN, collect, write_items};
    #[test]
    fn chunks_cover_every_item_once_in_order() {
        for n in [0, 1, 7, PARALLEL_MIN - 1, PARALLEL_MIN, 10_007, 40_009] {
            let got = collect(n, n, |i, out| {
                if i % 3 != 0 {
                    out.push(i);
                    out.push(i);
                }
            });
            let want: Vec<usize> = (0..n).filter(|i| i % 3 != 0).flat_map(|i| [i, i]).collect();
            assert_eq!(got, want, "{n}");
            let mut text = Output::held(0);
            text.push('>');
            write_items(n, &mut text, 4, |i, out| out.push_str(&format!("{i},")));
            let mut streamed = Vec::new();
            let mut output = Output::streamed(&mut streamed);
            output.push('>');
            write_items(n, &mut output, 4, |i, out| out.push_str(&format!("{i},")));
            output.finish().unwrap();
            assert_eq!(String::from_utf8(streamed).unwrap(), *text, "{n}");
            let text = text.into_text();
            let want: String = std::iter::once(">".to_owned())
                .chain((0..n).map(|i| format!("{i},")))
                .collect();
            assert_eq!(text, want, "{n}");
        }
    }

    /// A writer that takes a few bytes, then fails.
    struct Failing(usize);

    impl std::io::Write for Failing {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if self.0 < 100 {
                self.0 += b.len();
                return Ok(b.len());
            }
            Err(std::io::Error::other("disk full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_streamed_output_reports_its_sinks_first_error() {
        let mut sink = Failing(0);
        let mut out = Output::streamed(&mut sink);
        write_items(100_000, &mut out, 8, |i, out| {
            out.push_str(&format!("{i},"))
        });
        let e = out.finish().unwrap_err();
        assert_eq!(e.to_string(), "disk full");
        let mut sink = Failing(0);
        let mut out = Output::streamed(&mut sink);
        out.push_str("short");
        assert!(out.finish().is_ok());
    }
}
