//! Work over many items in parallel chunks with the results in item order: how a large
//! diagram is built and written on every core while its output stays byte-identical to a
//! run on one. Below [`PARALLEL_MIN`] items everything runs on the calling thread, so a
//! small loop never starts the thread pool (start-up stays tiny).

use std::ops::Range;

use rayon::prelude::*;

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

/// `write(i, out)` for each item `i` of `0..n`, in order, appended to `out`. `item_size`
/// is about how many bytes an item writes, to size each chunk's text once.
pub fn write_items(
    n: usize,
    out: &mut String,
    item_size: usize,
    write: impl Fn(usize, &mut String) + Sync,
) {
    if n < PARALLEL_MIN {
        (0..n).for_each(|i| write(i, out));
        return;
    }
    let first = in_place_share(n);
    let ((), parts) = rayon::join(
        || (0..first).for_each(|i| write(i, out)),
        || {
            ranges(n - first)
                .into_par_iter()
                .map(|r| {
                    let mut part = String::with_capacity(r.len().saturating_mul(item_size));
                    r.for_each(|i| write(first + i, &mut part));
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
    use super::*;

    #[test]
    fn chunks_cover_every_item_once_in_order() {
        for n in [0, 1, 7, PARALLEL_MIN - 1, PARALLEL_MIN, 10_007] {
            let got = collect(n, n, |i, out| {
                if i % 3 != 0 {
                    out.push(i);
                    out.push(i);
                }
            });
            let want: Vec<usize> = (0..n).filter(|i| i % 3 != 0).flat_map(|i| [i, i]).collect();
            assert_eq!(got, want, "{n}");
            let mut text = String::from(">");
            write_items(n, &mut text, 4, |i, out| out.push_str(&format!("{i},")));
            let want: String = std::iter::once(">".to_owned())
                .chain((0..n).map(|i| format!("{i},")))
                .collect();
            assert_eq!(text, want, "{n}");
        }
    }
}
