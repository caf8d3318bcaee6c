//! JSON Pointers (RFC 6901) as people read them in messages.

/// `loop.phases[1].id` from `/loop/phases/1/id`.
pub fn field_path(ptr: &str) -> String {
    let mut out = String::new();
    for seg in ptr.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&seg);
        }
    }
    if out.is_empty() {
        "the document".to_owned()
    } else {
        out
    }
}
