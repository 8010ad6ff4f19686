//! Headless Chromium under chromedriver, driven over WebDriver (fantoccini),
//! for the tests of the page. Only `tests/browser.rs` includes this module:
//! the other test crates need no browser.

// Each browser test crate uses its own subset of these helpers.
#![allow(dead_code)]

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a page gets to reach a state the test waits for.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Where the tests leave their screenshots and recordings.
pub fn output_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-test");
    std::fs::create_dir_all(&dir).expect("create the browser test's output folder");
    dir
}

fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    })
}

/// A browser session; the driver and the browser end with it.
pub struct Browser {
    pub client: Client,
    driver: Child,
    profile: PathBuf,
    /// Where the browser saves downloads.
    pub downloads: PathBuf,
}

/// The screen a test's browser has.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Screen {
    /// A desktop window, 1280x1000, with a mouse.
    Desktop,
    /// A phone: a 390x844 viewport with touch (and no hover).
    Phone,
}

impl Browser {
    /// Chromium and chromedriver as Debian installs them, on `screen` (or as
    /// `PAWNRACE_CHROMIUM` and `PAWNRACE_CHROMEDRIVER` name them). `None`
    /// where they are absent outside CI (see [`crate::common::tool_missing`]).
    pub async fn start_on(test: &str, screen: Screen) -> Option<Browser> {
        let named = |var: &str, names: &[&str]| match std::env::var_os(var) {
            Some(path) => Some(PathBuf::from(path)).filter(|p| p.is_file()),
            None => on_path(names),
        };
        let chromium = named(
            "PAWNRACE_CHROMIUM",
            &["chromium", "chromium-browser", "google-chrome"],
        );
        let driver = named("PAWNRACE_CHROMEDRIVER", &["chromedriver"]);
        let (Some(chromium), Some(driver)) = (chromium, driver) else {
            let why = "Chromium or chromedriver is not installed \
                       (Debian: apt-get install chromium chromium-driver)";
            crate::common::tool_missing(test, why);
            return None;
        };
        let profile = output_dir().join(format!("profile-{test}-{}", std::process::id()));
        let downloads = output_dir().join(format!("downloads-{test}"));
        let _ = std::fs::remove_dir_all(&downloads);
        std::fs::create_dir_all(&downloads).expect("a downloads folder");
        // A port picked free may be handed out again before chromedriver
        // binds it: then the driver exits, or the port answers for another
        // test's driver, which may end first. So the tests start their
        // browsers one at a time (a bound port is not handed out), and a
        // failed start is tried again on another port.
        static STARTING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
        let _one_at_a_time = STARTING.lock().await;
        let mut failures = Vec::new();
        for _ in 0..3 {
            let port = free_port();
            // Its own process group, so that the browser it starts ends with it.
            let mut child = Command::new(&driver)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .process_group(0)
                .spawn()
                .expect("start chromedriver");
            let _ = std::fs::remove_dir_all(&profile);
            match connect(port, &mut child, &chromium, &profile, &downloads, screen).await {
                Ok(client) => {
                    let browser = Browser {
                        client,
                        driver: child,
                        profile,
                        downloads,
                    };
                    if screen == Screen::Desktop {
                        browser
                            .client
                            .set_window_size(1280, 1000)
                            .await
                            .expect("size the window");
                    }
                    return Some(browser);
                }
                Err(e) => {
                    end_driver(&mut child);
                    failures.push(e);
                }
            }
        }
        panic!("{test}: no WebDriver session with headless Chromium: {failures:?}");
    }

    /// Ends the session (the browser quits); dropping ends the driver.
    pub async fn finish(self) {
        let close = self.client.clone().close();
        if tokio::time::timeout(Duration::from_secs(10), close)
            .await
            .is_err()
        {
            eprintln!("the browser did not close in 10 s; its driver is killed");
        }
    }

    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let png = self.client.screenshot().await.expect("a screenshot");
        let path = output_dir().join(name);
        std::fs::write(&path, png).expect("write the screenshot");
        eprintln!("screenshot: {}", path.display());
        path
    }

    /// Runs `script` (a function body; `arguments` are `args`) in the page.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute(script, args)
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Waits until `condition` (a JavaScript expression) is truthy.
    pub async fn wait_until(&self, condition: &str) {
        let deadline = Instant::now() + PATIENCE;
        let script = format!("return Boolean({condition});");
        loop {
            if self.js(&script, vec![]).await == Value::Bool(true) {
                return;
            }
            if Instant::now() > deadline {
                let state = self
                    .js("return document.body.dataset.state + ' | ' + document.getElementById('message').textContent;", vec![])
                    .await;
                self.screenshot("timeout.png").await;
                panic!("the page never got to `{condition}` (state: {state})");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn element(&self, css: &str) -> Element {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"))
    }

    /// Clicks the element; again if it was just replaced (the board widget
    /// redraws its squares when it turns).
    pub async fn click(&self, css: &str) {
        for _ in 0..3 {
            match self.element(css).await.click().await {
                Ok(()) => return,
                Err(e) if e.to_string().contains("stale element") => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("click {css}: {e}"),
            }
        }
        panic!("click {css}: the element was replaced three times over");
    }

    /// Types `text` into the element (WebDriver keys, `Key::Enter` too).
    pub async fn keys(&self, css: &str, text: &str) {
        let typed = self.element(css).await.send_keys(text).await;
        typed.unwrap_or_else(|e| panic!("type into {css}: {e}"));
    }

    pub async fn text(&self, css: &str) -> String {
        self.element(css).await.text().await.expect("text")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        end_driver(&mut self.driver);
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Ends chromedriver's whole group: the driver and the browser it started.
fn end_driver(driver: &mut Child) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", driver.id())])
        .status();
    let _ = driver.kill();
    let _ = driver.wait();
}

/// A port nobody listens on now (the OS picks; we let it go again).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

async fn connect(
    port: u16,
    driver: &mut Child,
    chromium: &Path,
    profile: &Path,
    downloads: &Path,
    screen: Screen,
) -> Result<Client, String> {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(addr).is_err() {
        if let Ok(Some(status)) = driver.try_wait() {
            return Err(format!("chromedriver on {addr} exited: {status}"));
        }
        if Instant::now() >= deadline {
            return Err(format!("chromedriver did not listen on {addr}"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut options = json!({
        "binary": chromium,
        "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--hide-scrollbars",
            format!("--user-data-dir={}", profile.display()),
        ],
        "prefs": {
            "download.default_directory": downloads,
            "download.prompt_for_download": false,
        },
    });
    if screen == Screen::Phone {
        options["mobileEmulation"] = json!({
            "deviceMetrics": { "width": 390, "height": 844, "pixelRatio": 1, "touch": true },
        });
    }
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("goog:chromeOptions".into(), options);
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(capabilities)
        .connect(&format!("http://{addr}"))
        .await
        .map_err(|e| format!("a WebDriver session on {addr}: {e}"))
}
