//! Replicas behind a real load balancer: three `pawnrace serve` processes
//! and HAProxy (Debian's `haproxy`) running the shipped
//! `deploy/haproxy.cfg`, every address on a free loopback port. Sessions
//! spread over the replicas (each one's `--stats-interval` log shows its
//! share), `pawnrace loadtest` runs through the balancer, and one replica
//! is killed (SIGKILL) while its sessions search: their clients see the
//! close at once, new sessions go to the live replicas (but for one caught
//! connecting to the dead one as it is marked down, which reconnects), the
//! other sessions' searches answer, and a client that reconnects and resends
//! its moves plays on.
//!
//! Without HAProxy these tests fail where `CI` is set (`.ci/run` installs
//! it) and elsewhere say SKIPPED and pass.

mod common;

use common::{BIN, Peer, Recv, ServerProcess, eventually, temp_dir, tool_missing};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const CONFIG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/haproxy.cfg");
/// The health checks' interval here, ms (the shipped default is 1000).
const CHECK_MS: u64 = 200;
/// The start with gaps AH, black to move: no table knows it, so a search
/// from it takes all its time.
const UNKNOWN: &str = "8/ppppppp1/8/8/8/8/1PPPPPPP/8 b -";

fn haproxy(test: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .chain([PathBuf::from("/usr/sbin")])
        .map(|dir| dir.join("haproxy"))
        .find(|p| p.is_file());
    if found.is_none() {
        tool_missing(
            test,
            "HAProxy is not installed (Debian: apt-get install haproxy)",
        );
    }
    found
}

fn free_addr() -> SocketAddr {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
}

/// A replica: `pawnrace serve` with HTTP, logging its counters every second.
struct Replica {
    server: ServerProcess,
    log: Arc<Mutex<Vec<String>>>,
}

impl Replica {
    fn start() -> Replica {
        let log = Arc::default();
        let server = ServerProcess::spawn_logged(
            &[
                "--http",
                "127.0.0.1:0",
                "--max-connections",
                "64",
                "--stats-interval",
                "1",
            ],
            Arc::clone(&log),
        );
        Replica { server, log }
    }

    /// The counters of its last `stats` line logged after `since_line`:
    /// `(line index, sessions open, sessions accepted)`.
    fn last_stats(&self) -> Option<(usize, u64, u64)> {
        let log = self.log.lock().unwrap_or_else(|e| e.into_inner());
        log.iter().enumerate().rev().find_map(|(i, line)| {
            let rest = &line[line.find(" stats sessions ")? + " stats ".len()..];
            let words: Vec<&str> = rest.split(' ').collect();
            let number = |key: &str| {
                let at = words.iter().position(|w| *w == key)?;
                words.get(at + 1)?.parse::<u64>().ok()
            };
            Some((i, number("sessions")?, number("accepted")?))
        })
    }

    /// The sessions open at its next `stats` line.
    fn sessions_now(&self) -> u64 {
        let seen = self.last_stats().map(|s| s.0);
        assert!(
            eventually(Duration::from_secs(5), || self.last_stats().map(|s| s.0)
                != seen),
            "no stats line from a replica"
        );
        self.last_stats().expect("stats").1
    }
}

/// HAProxy on the shipped configuration, in front of `replicas`.
struct Balancer {
    child: Child,
    tcp: SocketAddr,
    http: SocketAddr,
    stats: PathBuf,
}

impl Balancer {
    fn start(binary: &Path, replicas: &[Replica], dir: &Path) -> Balancer {
        let (tcp, http) = (free_addr(), free_addr());
        let stats = dir.join("haproxy.sock");
        let mut command = Command::new(binary);
        command
            .args(["-db", "-f", CONFIG])
            .env("PAWNRACE_TCP", tcp.to_string())
            .env("PAWNRACE_HTTP", http.to_string())
            .env("PAWNRACE_STATS", &stats)
            .env("PAWNRACE_CHECK_MS", CHECK_MS.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (i, r) in replicas.iter().enumerate() {
            command.env(format!("PAWNRACE_R{}", i + 1), r.server.addr.to_string());
            let page = r.server.http.expect("an HTTP address");
            command.env(format!("PAWNRACE_H{}", i + 1), page.to_string());
        }
        let mut child = command.spawn().expect("start haproxy");
        // Its log (health checks, servers going down) is kept for failures.
        let stderr = child.stderr.take().expect("stderr");
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("haproxy: {line}");
            }
        });
        let balancer = Balancer {
            child,
            tcp,
            http,
            stats,
        };
        assert!(
            eventually(Duration::from_secs(20), || {
                let up = balancer.servers("replicas");
                up.len() == 3 && up.iter().all(|(_, s)| s == "UP")
            }),
            "the replicas did not come up behind HAProxy: {:?}",
            balancer.servers("replicas")
        );
        balancer
    }

    /// `(server, status)` of each server of `backend`, from `show stat`.
    fn servers(&self, backend: &str) -> Vec<(String, String)> {
        let Ok(mut socket) = UnixStream::connect(&self.stats) else {
            return Vec::new();
        };
        let _ = socket.write_all(b"show stat\n");
        let mut csv = String::new();
        let _ = socket.read_to_string(&mut csv);
        csv.lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                let (proxy, server, status) = (f.first()?, f.get(1)?, f.get(17)?);
                (*proxy == backend && !["FRONTEND", "BACKEND"].contains(server))
                    .then(|| (server.to_string(), status.to_string()))
            })
            .collect()
    }
}

impl Drop for Balancer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends `line`, reads to its final line; `None` if the connection closed.
fn ask(peer: &Peer, line: &str) -> Option<String> {
    peer.send(line);
    loop {
        match peer.recv_within(Duration::from_secs(30)) {
            Recv::Line(l) if pawnrace::protocol::is_final_line(&l) => return Some(l),
            Recv::Line(_) => {}
            Recv::Eof => return None,
            Recv::Timeout => panic!("no answer to {line} in 30 s"),
        }
    }
}

#[test]
fn the_shipped_haproxy_config_is_valid() {
    let Some(haproxy) = haproxy("the_shipped_haproxy_config_is_valid") else {
        return;
    };
    let dir = temp_dir("haproxy-check");
    let out = Command::new(haproxy)
        .args(["-c", "-f", CONFIG])
        .env("PAWNRACE_STATS", dir.join("s.sock"))
        .output()
        .expect("haproxy -c runs");
    assert!(
        out.status.success(),
        "haproxy -c: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn replicas_behind_haproxy_share_the_load_and_survive_a_death() {
    let test = "replicas_behind_haproxy_share_the_load_and_survive_a_death";
    let Some(binary) = haproxy(test) else {
        return;
    };
    let dir = temp_dir("haproxy");
    let mut replicas: Vec<Replica> = (0..3).map(|_| Replica::start()).collect();
    let balancer = Balancer::start(&binary, &replicas, &dir);

    // The page through the balancer's HTTP side.
    let mut page = TcpStream::connect(balancer.http).expect("HTTP through HAProxy");
    page.write_all(b"GET /vocabulary.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .expect("ask for the page's script");
    let mut response = String::new();
    page.read_to_string(&mut response).expect("the response");
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("export const OWN"), "{response}");

    // `pawnrace loadtest` through the balancer: timed searches, a probe.
    let out = Command::new(BIN)
        .args([
            "loadtest",
            "--connect",
            &balancer.tcp.to_string(),
            "--sessions",
            "90",
            "--searchers",
            "6",
            "--rounds",
            "3",
            "--movetime",
            "300",
            "--churn",
            "0",
            "--time-limit",
            "120",
        ])
        .output()
        .expect("loadtest runs");
    let report = String::from_utf8_lossy(&out.stdout);
    eprintln!("loadtest through HAProxy:\n{report}");
    assert!(
        out.status.success(),
        "loadtest failed: {report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(report.contains("failures: 0"), "{report}");
    let accepted: Vec<u64> = replicas
        .iter()
        .map(|r| {
            r.sessions_now();
            r.last_stats().expect("stats").2
        })
        .collect();
    eprintln!(
        "sessions accepted per replica after the loadtest (health checks included): {accepted:?}"
    );

    // The loadtest's sessions gone (a closing TCP session lingers half a
    // second), all but a health check in flight.
    for replica in &replicas {
        let deadline = Instant::now() + Duration::from_secs(20);
        while replica.sessions_now() > 1 {
            assert!(
                Instant::now() < deadline,
                "the loadtest's sessions stay open"
            );
        }
    }

    // Thirty games, each on the replica the balancer chose: leastconn
    // spreads them evenly.
    let games: Vec<Peer> = (0..30)
        .map(|_| {
            let peer = Peer::connect(balancer.tcp);
            let set = ask(&peer, &format!("position fen {UNKNOWN}")).expect("a session");
            assert!(set.starts_with("ok position "), "{set}");
            peer
        })
        .collect();
    let shares: Vec<u64> = replicas.iter().map(Replica::sessions_now).collect();
    eprintln!("sessions open per replica with 30 games: {shares:?} (a health check may add one)");
    for share in &shares {
        assert!((8..=13).contains(share), "an uneven spread: {shares:?}");
    }

    // Every game searches; one replica dies mid-search.
    let searching = Instant::now();
    for peer in &games {
        peer.send("go movetime 1500");
    }
    thread::sleep(Duration::from_millis(200));
    let killed = Instant::now();
    let victim = &mut replicas[1];
    let _ = victim.server.child.kill();
    let _ = victim.server.child.wait();

    // New sessions meanwhile, one at a time: each must get a live replica
    // (a connection the dead one refuses is tried on another). One may be
    // closed instead: the session whose connection to the dead replica is
    // under way at the instant HAProxy marks it down is shut down with that
    // replica's sessions (`on-marked-down shutdown-sessions`), not sent on;
    // its client connects again, as any client that sees a close does.
    let newcomers = thread::spawn({
        let tcp = balancer.tcp;
        move || {
            let (mut again, mut refused) = (0, 0);
            let start = Instant::now();
            let mut n = 0;
            while start.elapsed() < Duration::from_secs(2) {
                let ready = || ask(&Peer::connect(tcp), "isready").as_deref() == Some("readyok");
                if !ready() {
                    again += 1;
                    if !ready() {
                        refused += 1;
                    }
                }
                n += 1;
                thread::sleep(Duration::from_millis(20));
            }
            (n, again, refused)
        }
    });

    // Each game watched on a thread of its own, so that a close is timed
    // when it comes, not when the test gets to it.
    let watchers: Vec<_> = games
        .into_iter()
        .enumerate()
        .map(|(i, peer)| {
            thread::spawn(move || {
                loop {
                    match peer.recv_within(Duration::from_secs(10)) {
                        Recv::Line(l) if l.starts_with("bestmove ") => {
                            return Err(searching.elapsed());
                        }
                        Recv::Line(_) => {}
                        Recv::Eof => return Ok(killed.elapsed()),
                        Recv::Timeout => panic!("game {i}: neither an answer nor a close in 10 s"),
                    }
                }
            })
        })
        .collect();
    let down = eventually(Duration::from_secs(10), || {
        balancer
            .servers("replicas")
            .iter()
            .any(|(name, status)| name == "r2" && status.starts_with("DOWN"))
    });
    let marked_down = killed.elapsed();
    assert!(down, "HAProxy never marked the dead replica down");
    // Ok(time from the kill to the close), Err(time from go to bestmove).
    let outcomes: Vec<Result<Duration, Duration>> = watchers
        .into_iter()
        .map(|w| w.join().expect("a game's watcher"))
        .collect();
    let closed: Vec<Duration> = outcomes.iter().filter_map(|o| o.ok()).collect();
    let lost: Vec<usize> = (0..outcomes.len())
        .filter(|i| outcomes[*i].is_ok())
        .collect();
    let answers: Vec<Duration> = outcomes.iter().filter_map(|o| o.err()).collect();
    let answered = answers.len();
    let slowest_answer = answers.iter().max().copied().unwrap_or_default();
    let (tried, again, refused) = newcomers.join().expect("the newcomers");
    let slowest_close = closed.iter().max().copied().unwrap_or_default();
    eprintln!(
        "after the kill: {} games closed (slowest {} ms after it), {answered} answered \
         (go movetime 1500: slowest bestmove {} ms after go); marked down within {} ms; \
         {tried} new sessions tried, {again} closed at once and tried again, {refused} refused",
        closed.len(),
        slowest_close.as_millis(),
        slowest_answer.as_millis(),
        marked_down.as_millis()
    );
    // Its games close, no other (its share may count a health check).
    let closed_n = closed.len() as u64;
    assert!(
        closed_n <= shares[1] && closed_n + 1 >= shares[1] && closed_n >= 8,
        "{closed_n} games closed; the dead replica held {} sessions",
        shares[1]
    );
    assert!(
        slowest_close < Duration::from_secs(3),
        "a close took {slowest_close:?}"
    );
    assert_eq!(refused, 0, "a new session met the dead replica twice");
    assert!(again <= 1, "{again} new sessions were closed at once");

    // A lost game goes on: reconnect, resend its moves, play.
    let i = *lost.first().expect("a lost game");
    let peer = Peer::connect(balancer.tcp);
    let set = ask(&peer, &format!("position fen {UNKNOWN}")).expect("a live replica");
    assert!(set.starts_with("ok position "), "game {i}: {set}");
    let best = ask(&peer, "go movetime 200").expect("an answer");
    assert!(
        best.starts_with("bestmove ") && best != "bestmove (none)",
        "{best}"
    );
    let fen = ask(&peer, "fen").expect("the position");
    assert!(
        fen.ends_with(" w -"),
        "white to move after black's answer: {fen}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
