//! Input framing: one record, a JSON array of records, or JSON Lines (docs/spec.md §12.2).
//!
//! JSON Lines are streamed in chunks of whole lines, so a file of any length is
//! checked in bounded memory. A JSON array, or a record spread over several lines
//! (pretty-printed), is read whole: such files are written for people and small.
//! Which one a file is shows in its first non-blank line: `[` starts an array; a
//! line that is a complete JSON value (or plainly not JSON) starts JSON Lines; a
//! line that stops mid-value starts a multi-line record.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::mem;

use anyhow::{anyhow, Context};
use serde::de::{DeserializeSeed, IgnoredAny, SeqAccess, Visitor};
use serde_json::value::RawValue;

use crate::args::Source;

/// Lines are gathered into chunks of about this many bytes, one job each.
const CHUNK_BYTES: usize = 256 * 1024;
/// Whole-input records are handed out this many to a job.
const CHUNK_RECORDS: usize = 1024;
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The input, framed.
pub enum Input {
    /// JSON Lines (one record on one line included), read as it is checked.
    Lines(LineChunks),
    /// An array or multi-line records, already split.
    Records(Split),
}

/// A whole input split into records.
pub struct Split {
    /// The records, in order.
    pub records: Vec<Box<RawValue>>,
    /// Why the record after the last one could not be read, if the input breaks
    /// off there: nothing after a syntax error can be framed.
    pub broken: Option<String>,
}

/// An opened input and its size, if known, for the progress bar.
pub struct Opened {
    pub input: Input,
    pub size: Option<u64>,
}

/// Opens `source` and decides how it is framed.
pub fn open(source: &Source) -> anyhow::Result<Opened> {
    match source {
        Source::Stdin => Ok(Opened {
            input: sniff(Box::new(BufReader::with_capacity(1 << 16, io::stdin())))
                .context("cannot read standard input")?,
            size: None,
        }),
        Source::File(path) => {
            let file =
                File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
            let size = file.metadata().ok().map(|m| m.len());
            let input = sniff(Box::new(BufReader::with_capacity(1 << 16, file)))
                .with_context(|| format!("cannot read {}", path.display()))?;
            Ok(Opened { input, size })
        }
    }
}

fn sniff(mut reader: Box<dyn BufRead + Send>) -> anyhow::Result<Input> {
    let mut head = Vec::new();
    loop {
        let start = head.len();
        if reader.read_until(b'\n', &mut head)? == 0 {
            // Only blank lines, or nothing at all.
            return Ok(Input::Lines(LineChunks::new(reader, head)));
        }
        if start == 0 && head.starts_with(BOM) {
            head.drain(..BOM.len());
        }
        let line = &head[start..];
        let Some(&first) = line.iter().find(|b| !b.is_ascii_whitespace()) else {
            continue;
        };
        let multi_line =
            first == b'[' || serde_json::from_slice::<IgnoredAny>(line).is_err_and(|e| e.is_eof());
        if !multi_line {
            return Ok(Input::Lines(LineChunks::new(reader, head)));
        }
        reader.read_to_end(&mut head)?;
        let text = String::from_utf8(head).map_err(|e| {
            anyhow!(
                "input is not UTF-8: invalid byte at offset {}",
                e.utf8_error().valid_up_to()
            )
        })?;
        return Ok(Input::Records(split_whole(&text)));
    }
}

/// Splits a whole input into records: a JSON array, or JSON values one after another.
fn split_whole(text: &str) -> Split {
    let mut records: Vec<Box<RawValue>> = Vec::new();
    let mut broken = None;
    if text.trim_start().starts_with('[') {
        let mut de = serde_json::Deserializer::from_str(text);
        let parsed = Elements(&mut records)
            .deserialize(&mut de)
            .and_then(|()| de.end());
        // On error, the elements before the broken one are in `records`.
        broken = parsed.err().map(|e| format!("invalid JSON: {e}"));
    } else {
        for value in serde_json::Deserializer::from_str(text).into_iter::<Box<RawValue>>() {
            match value {
                Ok(value) => records.push(value),
                Err(e) => {
                    broken = Some(format!("invalid JSON: {e}"));
                    break;
                }
            }
        }
    }
    Split { records, broken }
}

/// Collects the elements of a JSON array as raw text, one at a time, so that a
/// syntax error can be pinned to the element it is in.
struct Elements<'a>(&'a mut Vec<Box<RawValue>>);

impl<'de> DeserializeSeed<'de> for Elements<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Elements<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an array of records")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(record) = seq.next_element::<Box<RawValue>>()? {
            self.0.push(record);
        }
        Ok(())
    }
}

/// Hands `records` out in jobs of `CHUNK_RECORDS`, each with the index of its first.
pub fn record_chunks(records: Vec<Box<RawValue>>) -> Vec<(usize, Vec<Box<RawValue>>)> {
    let mut chunks = Vec::new();
    let mut rest = records.into_iter().peekable();
    let mut index = 0usize;
    while rest.peek().is_some() {
        let chunk: Vec<_> = rest.by_ref().take(CHUNK_RECORDS).collect();
        let first = index;
        index += chunk.len();
        chunks.push((first, chunk));
    }
    chunks
}

/// A run of whole lines of a JSON Lines input.
pub struct LineChunk {
    /// The record index of the first non-blank line (records count from 0).
    pub first_index: usize,
    /// The line number of the first line (lines count from 1).
    pub first_line: u64,
    /// The lines, each ending in `\n` except perhaps the input's last.
    pub text: Vec<u8>,
}

impl LineChunk {
    /// The lines with their line numbers, blank lines included.
    pub fn lines(&self) -> impl Iterator<Item = (u64, &[u8])> {
        let body = self.text.strip_suffix(b"\n").unwrap_or(&self.text);
        // memchr finds line ends many bytes at a time; a byte-wise split was a
        // noticeable share of the time per record.
        let ends = memchr::memchr_iter(b'\n', body).chain(std::iter::once(body.len()));
        let mut start = 0;
        let lines = ends.map(move |end| {
            let line = &body[start..end];
            start = end + 1;
            line
        });
        (self.first_line..).zip(lines)
    }
}

/// A blank line separates nothing and is not a record.
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// Reads JSON Lines in chunks of whole lines.
pub struct LineChunks {
    reader: Box<dyn BufRead + Send>,
    /// Lines read while sniffing, not yet handed out.
    head: Vec<u8>,
    next_index: usize,
    next_line: u64,
    done: bool,
}

impl LineChunks {
    fn new(reader: Box<dyn BufRead + Send>, head: Vec<u8>) -> Self {
        Self {
            reader,
            head,
            next_index: 0,
            next_line: 1,
            done: false,
        }
    }

    fn read_chunk(&mut self) -> io::Result<Option<LineChunk>> {
        let mut text = mem::take(&mut self.head);
        if !self.done {
            text.reserve(CHUNK_BYTES + (1 << 16));
            // Whole buffers first (no per-line work on the reading thread), then
            // the rest of the last line, so a chunk always ends at a line end.
            while text.len() < CHUNK_BYTES {
                let buf = self.reader.fill_buf()?;
                if buf.is_empty() {
                    self.done = true;
                    break;
                }
                // A reader may hand out everything at once (an in-memory one does).
                let n = buf.len().min(CHUNK_BYTES - text.len());
                text.extend_from_slice(&buf[..n]);
                self.reader.consume(n);
            }
            if !self.done
                && !text.ends_with(b"\n")
                && self.reader.read_until(b'\n', &mut text)? == 0
            {
                self.done = true;
            }
        }
        if text.is_empty() {
            return Ok(None);
        }
        let chunk = LineChunk {
            first_index: self.next_index,
            first_line: self.next_line,
            text,
        };
        for (_, line) in chunk.lines() {
            self.next_line += 1;
            if !is_blank(line) {
                self.next_index += 1;
            }
        }
        Ok(Some(chunk))
    }
}

impl Iterator for LineChunks {
    type Item = anyhow::Result<LineChunk>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.read_chunk() {
            Ok(chunk) => chunk.map(Ok),
            Err(e) => {
                self.done = true;
                self.head.clear();
                Some(Err(anyhow::Error::new(e).context("cannot read the input")))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sniff_str(text: &str) -> Input {
        sniff(Box::new(io::Cursor::new(text.as_bytes().to_vec()))).expect("in-memory input reads")
    }

    fn lines_of(input: Input) -> Vec<(usize, u64, String)> {
        let Input::Lines(chunks) = input else {
            panic!("expected JSON Lines")
        };
        let mut out = Vec::new();
        for chunk in chunks {
            let chunk = chunk.expect("in-memory input reads");
            let mut index = chunk.first_index;
            for (line_no, line) in chunk.lines() {
                if !is_blank(line) {
                    out.push((index, line_no, String::from_utf8_lossy(line).into_owned()));
                    index += 1;
                }
            }
        }
        out
    }

    #[test]
    fn json_lines_keep_indexes_and_line_numbers_across_blank_lines() {
        let got = lines_of(sniff_str("\n{\"a\":1}\n\n{\"a\":2}\r\n{\"a\":3}"));
        assert_eq!(
            got,
            vec![
                (0, 2, "{\"a\":1}".to_owned()),
                (1, 4, "{\"a\":2}\r".to_owned()),
                (2, 5, "{\"a\":3}".to_owned()),
            ]
        );
    }

    #[test]
    fn a_first_line_that_is_not_json_still_frames_as_lines() {
        let got = lines_of(sniff_str("nope\n{\"a\":2}\n"));
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].2, "nope");
    }

    #[test]
    fn a_bom_is_skipped() {
        let got = lines_of(sniff_str("\u{feff}{\"a\":1}\n"));
        assert_eq!(got, vec![(0, 1, "{\"a\":1}".to_owned())]);
    }

    #[test]
    fn long_inputs_are_split_into_several_chunks_without_losing_lines() {
        let line = format!("{{\"pad\":\"{}\"}}\n", "x".repeat(100));
        let text = line.repeat(10_000);
        let Input::Lines(chunks) = sniff_str(&text) else {
            panic!("expected JSON Lines")
        };
        let chunks: Vec<_> = chunks.map(|c| c.expect("reads")).collect();
        assert!(chunks.len() > 2, "{} chunks", chunks.len());
        let total: usize = chunks.iter().map(|c| c.lines().count()).sum();
        assert_eq!(total, 10_000);
        assert_eq!(
            chunks.last().map(|c| c.first_index + c.lines().count()),
            Some(10_000)
        );
    }

    #[test]
    fn arrays_and_pretty_records_are_read_whole() {
        let Input::Records(r) = sniff_str("[\n {\"a\": 1},\n {\"a\": 2}\n]\n") else {
            panic!("expected records")
        };
        let texts: Vec<&str> = r.records.iter().map(|r| r.get()).collect();
        assert_eq!(texts, ["{\"a\": 1}", "{\"a\": 2}"]);
        assert!(r.broken.is_none());
        let Input::Records(r) = sniff_str("{\n \"a\": 1\n}\n{\n \"a\": 2\n}") else {
            panic!("expected records")
        };
        assert_eq!((r.records.len(), r.broken), (2, None));
    }

    #[test]
    fn a_broken_array_keeps_the_records_before_the_break() {
        let Input::Records(r) = sniff_str("[{\"a\":1},\n{\"a\":}]") else {
            panic!("expected records")
        };
        assert_eq!(r.records.len(), 1);
        let why = r.broken.expect("the second element is broken");
        assert!(
            why.starts_with("invalid JSON: ") && why.contains("line 2"),
            "{why}"
        );
    }
}
