//! Files and streams: reading inputs (`read`), finding loop files in folders (`find`),
//! atomic writes (`write`).

mod find;
mod read;
mod write;

pub(super) use find::{
    expand, first_mentions, is_agent_spec, no_loop_files, refuse_unused_stdin_name, search_each,
};
pub(crate) use read::plain_io;
pub(super) use read::{
    folder_pool, is_stdio, map_on_readers, no_such_path, open_error, read_input, reader_pool,
};
pub(crate) use write::same_file;
#[cfg(feature = "mcp")]
#[allow(
    unused_imports,
    reason = "loopconv-mcp's `convert` and `new` tools; unused by loopconv"
)]
pub(crate) use write::write_atomic;
pub(super) use write::{
    Inputs, Written, emit, emit_streamed, refuse_input_as_output, write_all_atomic,
};
