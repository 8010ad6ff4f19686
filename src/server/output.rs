//! A session's output: one writer task per connection, fed by a bounded
//! channel, so that the actor and a search on its own thread can both
//! produce lines without sharing the stream.

use crate::protocol::Reply;
use std::time::Duration;
use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tracing::{debug, warn};

/// Lines waiting for the writer. Bounded so a peer that stops reading
/// slows its own search down rather than growing our memory.
pub(super) const OUTPUT_QUEUE: usize = 256;

/// Queues `reply` for the writer. The queue is the wire: what it holds is
/// text, as the peer will read it.
pub(super) async fn send(out: &mpsc::Sender<String>, reply: Reply) {
    // Fails only when the writer is gone, which the actor learns separately.
    let _ = out.send(reply.to_string()).await;
}

pub(super) async fn send_all(out: &mpsc::Sender<String>, lines: Vec<Reply>) {
    for line in lines {
        send(out, line).await;
    }
}

/// Writes lines as they come, flushing after each batch of whatever is
/// queued. Ends when every sender is gone or the peer cannot be written to
/// (a write stuck for `stall` counts: the peer is not reading); either way
/// it drops the receiver, which tells the senders.
pub(super) async fn write_lines<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut rx: mpsc::Receiver<String>,
    stall: Duration,
) {
    let mut batch = Vec::new();
    while let Some(line) = rx.recv().await {
        batch.clear();
        push_line(&mut batch, &line);
        while batch.len() < 64 * 1024 {
            match rx.try_recv() {
                Ok(line) => push_line(&mut batch, &line),
                Err(_) => break,
            }
        }
        let write = async {
            writer.write_all(&batch).await?;
            writer.flush().await
        };
        match tokio::time::timeout(stall, write).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                debug!("write failed: {e}");
                return;
            }
            Err(_) => {
                warn!(
                    "peer has not read its output for {:?}; giving up on it",
                    stall
                );
                return;
            }
        }
    }
    let _ = tokio::time::timeout(stall, writer.shutdown()).await;
}

fn push_line(batch: &mut Vec<u8>, line: &str) {
    batch.extend_from_slice(line.as_bytes());
    batch.push(b'\n');
}
