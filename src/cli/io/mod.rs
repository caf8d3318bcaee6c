//! Files and streams: reading inputs (`read`), finding loop files in folders (`find`),
//! atomic writes (`write`).

mod find;
mod read;
mod write;

pub(super) use find::{
    expand, first_mentions, is_agent_spec, no_loop_files, refuse_unused_stdin_name, search_each,
};
pub(super) use read::{
    folder_pool, is_stdio, map_on_readers, no_such_path, open_error, plain_io, read_input,
    reader_pool,
};
#[cfg(feature = "mcp")]
pub(super) use write::write_atomic;
pub(super) use write::{
    Inputs, Written, emit, emit_streamed, refuse_input_as_output, same_file, write_all_atomic,
};
