//! A `Server` in the test's own process, for its counters and settings.

use pawnrace::server::{Server, ServerConfig, Stats};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// `Server` running in this process, on its own runtime thread.
pub struct InProcess {
    pub addr: SocketAddr,
    pub stats: Arc<Stats>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<thread::JoinHandle<std::io::Result<()>>>,
}

impl InProcess {
    pub fn start(config: ServerConfig) -> InProcess {
        let server = Server::new(config);
        let stats = server.stats();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (addr_tx, addr_rx) = mpsc::channel();
        let thread = thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?;
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
                let _ = addr_tx.send(listener.local_addr()?);
                server
                    .run(listener, async move {
                        let _ = stopped.await;
                    })
                    .await
            })
        });
        let addr = addr_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("server address");
        InProcess {
            addr,
            stats,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Triggers shutdown and waits for `serve` to return.
    pub fn shutdown(&mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.thread.take() {
            Some(thread) => thread.join().expect("server thread"),
            None => Ok(()),
        }
    }
}

impl Drop for InProcess {
    fn drop(&mut self) {
        if self.stop.is_some() {
            let _ = self.shutdown();
        }
    }
}
