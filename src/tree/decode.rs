//! Bytes to text, and the limits applied while reading.

use crate::diag::{Code, Diagnostic, Diagnostics, Pos};

use super::lines::{line_starts, pos_of};

/// The largest input any limit allows: 4 GiB (positions are kept in 32 bits, see
/// `Span`).
pub const MAX_INPUT_BYTES: usize = match 1usize.checked_shl(32) {
    Some(n) => n,
    None => usize::MAX,
};

/// The help of `P004` for a document with more values than the limit, JSON or YAML.
pub(super) const MAX_VALUES_HELP: &str =
    "check that this is the loop you meant; raise the limit with `--max-values` if it is";

/// Limits applied while reading input: bytes, nesting depth, values and phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// Largest accepted input, in bytes.
    pub max_bytes: usize,
    /// Deepest accepted nesting of arrays and objects.
    pub max_depth: usize,
    /// Most YAML events replayed through aliases.
    pub max_alias_events: usize,
    /// Most phases in one loop.
    pub max_phases: usize,
    /// Most values (objects, arrays and scalars) in one document. A 64 MiB JSON array of
    /// zeros holds 33 million values and took 6.5 GB to read; a loop with the most phases
    /// needs a few hundred thousand.
    pub max_nodes: usize,
    /// Most diagnostics kept for one file ([`Diagnostics::set_limit`]); the others are
    /// counted in one `P016`. A parser that finds many repeats records no more than this.
    pub max_diagnostics: usize,
}

/// The deepest nesting of arrays and objects read by default.
pub const DEFAULT_MAX_DEPTH: usize = 128;

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits {
            max_bytes: 64 * 1024 * 1024,
            max_depth: DEFAULT_MAX_DEPTH,
            max_alias_events: 100_000,
            max_phases: 10_000,
            max_nodes: 1_000_000,
            max_diagnostics: crate::diag::DEFAULT_MAX_DIAGNOSTICS,
        }
    }
}

/// Decode bytes into text, reporting invalid UTF-8, NUL bytes, a byte-order mark and the
/// size limit. Returns `None` when the input cannot be read further.
pub fn decode(bytes: &[u8], limits: &ReadLimits, diags: &mut Diagnostics) -> Option<String> {
    if !size_fits(bytes.len(), limits, diags) {
        return None;
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            report_invalid_utf8(bytes, e, diags);
            return None;
        }
    };
    let bom = text_fits(text, diags)?;
    Some(text[bom..].to_owned())
}

/// Like [`decode`], reusing the buffer: no copy of the input (unless it starts with a
/// byte-order mark), and its UTF-8 checked once.
pub fn decode_owned(
    bytes: Vec<u8>,
    limits: &ReadLimits,
    diags: &mut Diagnostics,
) -> Option<String> {
    if !size_fits(bytes.len(), limits, diags) {
        return None;
    }
    let mut text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            report_invalid_utf8(e.as_bytes(), e.utf8_error(), diags);
            return None;
        }
    };
    let bom = text_fits(&text, diags)?;
    text.drain(..bom);
    Some(text)
}

/// Like [`decode_owned`], for text that is already a string (an editor's buffer): the text
/// when it can be read further, else the same diagnostics and the text handed back.
pub fn decode_text(
    mut text: String,
    limits: &ReadLimits,
    diags: &mut Diagnostics,
) -> Result<String, String> {
    if !size_fits(text.len(), limits, diags) {
        return Err(text);
    }
    match text_fits(&text, diags) {
        Some(bom) => {
            text.drain(..bom);
            Ok(text)
        }
        None => Err(text),
    }
}

/// `P004` when the input is larger than the limit (never more than [`MAX_INPUT_BYTES`]).
fn size_fits(len: usize, limits: &ReadLimits, diags: &mut Diagnostics) -> bool {
    let max_bytes = limits.max_bytes.min(MAX_INPUT_BYTES);
    if len <= max_bytes {
        return true;
    }
    let mut d = Diagnostic::new(
        Code::TooLarge,
        format!("the input is {len} bytes, more than the limit of {max_bytes} bytes"),
    )
    .with_help("raise the limit with `--max-input-bytes` if the file is genuine");
    d.location.pos = Some(Pos::START);
    diags.push(d);
    false
}

/// `P007`, at the first byte that is not part of a UTF-8 character.
fn report_invalid_utf8(bytes: &[u8], e: std::str::Utf8Error, diags: &mut Diagnostics) {
    let off = e.valid_up_to();
    let ok = std::str::from_utf8(&bytes[..off]).unwrap_or("");
    let starts = line_starts(ok);
    let mut d = Diagnostic::new(
        Code::InvalidUtf8,
        format!("the input is not valid UTF-8 (byte {off} is not part of a UTF-8 character)"),
    )
    .with_help("save the file as UTF-8");
    let mut p = pos_of(ok, &starts, (off, off));
    p.end = p.start;
    d.location.pos = Some(p);
    diags.push(d);
}

/// The checks of decoded text: a byte-order mark (a warning; its length is returned, 0
/// without one), NUL bytes and empty input (`None`: the input is not read further).
fn text_fits(text: &str, diags: &mut Diagnostics) -> Option<usize> {
    let (text, bom) = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            let mut d = Diagnostic::new(
                Code::ByteOrderMark,
                "the input starts with a byte-order mark (U+FEFF), which is ignored",
            )
            .with_help("save the file as UTF-8 without a BOM");
            d.location.pos = Some(Pos::START);
            diags.push(d);
            (rest, '\u{feff}'.len_utf8())
        }
        None => (text, 0),
    };
    // memchr (SIMD): `str::find` of a char was 1 % of reading a large file.
    if let Some(off) = memchr::memchr(0, text.as_bytes()) {
        let starts = line_starts(text);
        let mut d = Diagnostic::new(Code::NulByte, "the input contains a NUL byte")
            .with_help("loop files are text; remove the NUL byte (is this a binary file?)");
        d.location.pos = Some(pos_of(text, &starts, (off, off + 1)));
        diags.push(d);
        return None;
    }
    if text.trim().is_empty() {
        let mut d = Diagnostic::new(Code::EmptyInput, "the input is empty")
            .with_help("a loop file holds one JSON object or one YAML mapping");
        d.location.pos = Some(Pos::START);
        diags.push(d);
        return None;
    }
    Some(bom)
}
