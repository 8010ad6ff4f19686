//! Framing: bytes in, lines (or complaints about lines) out.
//!
//! `LinesCodec` reports an overlong line and a line that is not UTF-8 as
//! decoder errors, and `FramedRead` ends the stream after any decoder error.
//! A peer's bad line must not end its session, so this wrapper turns those
//! two errors into frames. Both are safe to continue after (tokio-util
//! 0.7.20): on `MaxLineLengthExceeded` the codec switches to discarding up to
//! the next `\n` and then resumes normally; a UTF-8 failure happens after the
//! line has already been split off the buffer with its scan index reset.

use std::io;
use tokio_util::bytes::BytesMut;
use tokio_util::codec::{Decoder, LinesCodec, LinesCodecError};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Frame {
    /// A line without its `\n` or `\r\n`.
    Line(String),
    /// A line longer than the limit; the rest of it, up to its `\n`, is
    /// dropped unseen.
    TooLong,
    /// A line that is not valid UTF-8.
    BadEncoding,
}

/// The limit is on the line itself: a `\r` before its `\n` is not counted,
/// so `\r\n` and `\n` peers get the same limit. `LinesCodec` counts every
/// byte before the `\n`, so it is given one byte more, and a line that only
/// fits with that byte is refused here.
#[derive(Debug)]
pub struct LineFramer {
    inner: LinesCodec,
    max: usize,
}

impl LineFramer {
    pub fn new(max_line_length: usize) -> LineFramer {
        LineFramer {
            inner: LinesCodec::new_with_max_length(max_line_length.saturating_add(1)),
            max: max_line_length,
        }
    }

    pub fn max_line_length(&self) -> usize {
        self.max
    }
}

impl Decoder for LineFramer {
    type Item = Frame;
    type Error = io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> io::Result<Option<Frame>> {
        to_frame(self.inner.decode(buf), self.max)
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> io::Result<Option<Frame>> {
        to_frame(self.inner.decode_eof(buf), self.max)
    }
}

fn to_frame(
    decoded: Result<Option<String>, LinesCodecError>,
    max: usize,
) -> io::Result<Option<Frame>> {
    match decoded {
        Ok(Some(line)) if line.len() > max => Ok(Some(Frame::TooLong)),
        Ok(line) => Ok(line.map(Frame::Line)),
        Err(LinesCodecError::MaxLineLengthExceeded) => Ok(Some(Frame::TooLong)),
        // LinesCodec does no I/O itself: the only io::Error its decoder makes
        // is the UTF-8 one. Real read errors reach FramedRead another way.
        Err(LinesCodecError::Io(e)) if e.kind() == io::ErrorKind::InvalidData => {
            Ok(Some(Frame::BadEncoding))
        }
        Err(LinesCodecError::Io(e)) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Feeds `chunks` one at a time as a reader would deliver them, then EOF.
    fn frames(max: usize, chunks: &[&[u8]]) -> Vec<Frame> {
        let mut framer = LineFramer::new(max);
        let mut buf = BytesMut::new();
        let mut out = Vec::new();
        for chunk in chunks {
            buf.extend_from_slice(chunk);
            while let Some(frame) = framer.decode(&mut buf).expect("decode") {
                out.push(frame);
            }
        }
        while let Some(frame) = framer.decode_eof(&mut buf).expect("decode_eof") {
            out.push(frame);
        }
        out
    }

    fn line(s: &str) -> Frame {
        Frame::Line(s.to_string())
    }

    #[test]
    fn lines_and_crlf() {
        assert_eq!(
            frames(16, &[b"isready\r\ngo\n", b"quit"]),
            [line("isready"), line("go"), line("quit")]
        );
    }

    #[test]
    fn too_long_then_recovers() {
        let long = vec![b'x'; 40];
        assert_eq!(
            frames(8, &[&long, b"\nisready\n"]),
            [Frame::TooLong, line("isready")]
        );
        // The limit is inclusive.
        assert_eq!(frames(8, &[b"12345678\n"]), [line("12345678")]);
        assert_eq!(
            frames(8, &[b"123456789\nok\n"]),
            [Frame::TooLong, line("ok")]
        );
        // A \r before the \n does not count against the limit.
        assert_eq!(frames(8, &[b"12345678\r\n"]), [line("12345678")]);
        assert_eq!(
            frames(8, &[b"123456789\r\nok\r\n"]),
            [Frame::TooLong, line("ok")]
        );
        assert_eq!(
            frames(8, &[b"1234567890\r\nok\n"]),
            [Frame::TooLong, line("ok")]
        );
    }

    #[test]
    fn too_long_across_many_reads() {
        let chunk = [b'y'; 5];
        let chunks: Vec<&[u8]> = vec![&chunk, &chunk, &chunk, &chunk, b"y\nisready\n"];
        assert_eq!(frames(8, &chunks), [Frame::TooLong, line("isready")]);
    }

    #[test]
    fn bad_encoding_then_recovers() {
        assert_eq!(
            frames(16, &[b"fo\xff\nisready\n\xc3"]),
            [Frame::BadEncoding, line("isready"), Frame::BadEncoding]
        );
    }

    proptest! {
        /// However the bytes are cut into reads, the frames are the same.
        #[test]
        fn chunking_does_not_matter(
            bytes in proptest::collection::vec(prop_oneof![Just(b'\n'), Just(b'\r'), Just(0xffu8), Just(b'a')], 0..200),
            cuts in proptest::collection::vec(0usize..200, 0..10),
        ) {
            let whole = frames(6, &[&bytes]);
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
            cuts.sort_unstable();
            let mut chunks = Vec::new();
            let mut start = 0;
            for cut in cuts {
                chunks.push(&bytes[start..cut]);
                start = cut;
            }
            chunks.push(&bytes[start..]);
            prop_assert_eq!(frames(6, &chunks), whole);
        }
    }
}
