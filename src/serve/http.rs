//! The HTTP side: reading a bounded JSON body, one-line JSON errors, and sending a reply
//! (a JSON value, an embedded file, a file read from disk, or JSON lines streamed as they are
//! computed).

use serde_json::{json, Value as Json};
use std::io::{Read, Write};

/// Largest request body accepted: every request is a small JSON object (a Kiothi position is
/// under 2 KiB); more is refused with 413 before it is read.
pub const MAX_BODY: usize = 64 * 1024;

/// A request refused: HTTP status and one line saying why (the field first, as the CLI does).
#[derive(Debug)]
pub struct ApiError {
    pub status: u16,
    pub reason: String,
}

impl ApiError {
    pub fn new(status: u16, reason: String) -> Self {
        ApiError { status, reason: reason.replace('\n', " ") }
    }
    /// 400: bad input.
    pub fn bad(reason: impl Into<String>) -> Self {
        ApiError::new(400, reason.into())
    }
}

/// Lines written one by one to the client as they are computed.
pub type Stream = Box<dyn FnOnce(&mut dyn FnMut(&Json) -> bool) + Send>;

pub enum Reply {
    Json(Json),
    Asset(&'static str, &'static str),
    Text(String, &'static str),
    /// JSON lines: the closure emits each line; `false` from the sink means the client left.
    Lines(Stream),
}

/// The request's body as JSON: 413 past [`MAX_BODY`] (by its declared length, or by what
/// arrives), 400 when it is not UTF-8 JSON.
pub fn body(req: &mut tiny_http::Request) -> Result<Json, ApiError> {
    let too_big = || ApiError::new(413, format!("body: larger than {MAX_BODY} bytes"));
    if req.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(too_big());
    }
    let mut bytes = Vec::new();
    req.as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ApiError::bad(format!("body: cannot be read ({e})")))?;
    if bytes.len() > MAX_BODY {
        return Err(too_big());
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    let text = std::str::from_utf8(&bytes).map_err(|_| ApiError::bad("body: not UTF-8 text"))?;
    let v: Json = serde_json::from_str(text).map_err(|e| ApiError::bad(format!("body: not JSON ({e})")))?;
    if !v.is_object() {
        return Err(ApiError::bad("body: expected a JSON object"));
    }
    Ok(v)
}

fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
}

/// Send the reply; a client that has gone away is not an error of the server.
pub fn send(req: tiny_http::Request, reply: Result<Reply, ApiError>) {
    let json_type = "application/json";
    let respond = |req: tiny_http::Request, status: u16, body: Vec<u8>, ctype: &str| {
        let r = tiny_http::Response::from_data(body)
            .with_status_code(status)
            .with_header(header("Content-Type", ctype))
            .with_header(header("Cache-Control", "no-store"))
            .with_header(header("X-Content-Type-Options", "nosniff"));
        let _ = req.respond(r);
    };
    match reply {
        Ok(Reply::Json(v)) => respond(req, 200, v.to_string().into_bytes(), json_type),
        Ok(Reply::Asset(text, ctype)) => respond(req, 200, text.as_bytes().to_vec(), ctype),
        Ok(Reply::Text(text, ctype)) => respond(req, 200, text.into_bytes(), ctype),
        Err(e) => respond(req, e.status, json!({"error": e.reason}).to_string().into_bytes(), json_type),
        Ok(Reply::Lines(stream)) => {
            // tiny_http buffers a chunked body in 8 KiB chunks; the lines must reach the
            // page as each is computed, so the response is written by hand, one chunk a line.
            let mut w = req.into_writer();
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nCache-Control: no-store\r\n\
                        Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
            if w.write_all(head.as_bytes()).and_then(|()| w.flush()).is_err() {
                return;
            }
            let mut open = true;
            let mut sink = |line: &Json| {
                if open {
                    let text = format!("{line}\n");
                    open = write!(w, "{:x}\r\n{text}\r\n", text.len()).and_then(|()| w.flush()).is_ok();
                }
                open
            };
            stream(&mut sink);
            let _ = w.write_all(b"0\r\n\r\n").and_then(|()| w.flush());
        }
    }
}

/// A field of the body: `body.name`, absent or `null` as `None`.
pub fn field<'a>(body: &'a Json, name: &str) -> Option<&'a Json> {
    body.get(name).filter(|v| !v.is_null())
}

/// An optional whole number in `lo..=hi`.
pub fn opt_uint(body: &Json, name: &str, lo: u64, hi: u64) -> Result<Option<u64>, ApiError> {
    match field(body, name) {
        None => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if (lo..=hi).contains(&n) => Ok(Some(n)),
            _ => Err(ApiError::bad(format!("{name}: {v}; expected a whole number {lo}..={hi}"))),
        },
    }
}

/// An optional number of seconds, positive and at most `max`.
pub fn opt_seconds(body: &Json, name: &str, max: f64) -> Result<Option<f64>, ApiError> {
    match field(body, name) {
        None => Ok(None),
        Some(v) => match v.as_f64() {
            Some(t) if t.is_finite() && t > 0.0 && t <= max => Ok(Some(t)),
            _ => Err(ApiError::bad(format!("{name}: {v}; expected a positive number of seconds (at most {max})"))),
        },
    }
}

/// An optional string field.
pub fn opt_str<'a>(body: &'a Json, name: &str) -> Result<Option<&'a str>, ApiError> {
    match field(body, name) {
        None => Ok(None),
        Some(v) => v.as_str().map(Some).ok_or_else(|| ApiError::bad(format!("{name}: {v}; expected a string"))),
    }
}

/// A variant by its CLI name (`FromStr` of the rules type), default when absent.
pub fn variant<T: std::str::FromStr + Default>(body: &Json, name: &str) -> Result<T, ApiError>
where
    T::Err: std::fmt::Display,
{
    match opt_str(body, name)? {
        None => Ok(T::default()),
        Some(s) => s.parse::<T>().map_err(|e| ApiError::bad(format!("{name}: {e}"))),
    }
}
