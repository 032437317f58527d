//! Headless Chromium driven over the DevTools protocol on a pipe
//! (`--remote-debugging-pipe`): the browser reads commands from its file
//! descriptor 3 and writes replies and events to 4, each a JSON message
//! ended by a NUL byte. The page's test needs a handful of the protocol's
//! methods (navigate, evaluate, screenshot) and its events, which this
//! keeps as JSON: no generated bindings of the whole protocol to compile.

use std::{
    cell::{Cell, RefCell},
    io::{BufRead, BufReader, PipeWriter, Write},
    os::{fd::AsRawFd, unix::process::CommandExt},
    path::Path,
    process::{Child, Command, Stdio},
    sync::mpsc::{Receiver, RecvTimeoutError, channel},
    time::{Duration, Instant},
};

use base64::Engine;
use serde_json::{Value, json};

/// How long one command may take before the test fails, naming it.
const TIMEOUT: Duration = Duration::from_secs(60);

/// One browser with one page open, its session attached.
pub struct Page {
    browser: Child,
    commands: RefCell<PipeWriter>,
    messages: Receiver<Value>,
    next_id: Cell<u64>,
    session: String,
    /// Every event the browser sent, in order (`method`, `params`).
    events: RefCell<Vec<Value>>,
    /// The browser's profile folder, removed with it.
    _profile: tempfile::TempDir,
}

impl Page {
    /// Starts `chromium` headless with a window of `width` x `height`,
    /// opens a blank page and attaches to it.
    pub fn launch(chromium: &Path, (width, height): (u32, u32)) -> Page {
        let profile = tempfile::tempdir().unwrap();
        let (from_test, to_browser) = std::io::pipe().unwrap();
        let (from_browser, to_test) = std::io::pipe().unwrap();
        let (browser_reads, browser_writes) = (from_test.as_raw_fd(), to_test.as_raw_fd());
        let mut command = Command::new(chromium);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--remote-debugging-pipe",
                &format!("--window-size={width},{height}"),
                &format!("--user-data-dir={}", profile.path().display()),
                "about:blank",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: between fork and exec the closure calls only fcntl
        // (F_DUPFD) and dup2, which are async-signal-safe, on descriptors
        // the parent holds open. Both ends are first copied above 9, so
        // placing one at 3 cannot close the other; dup2 leaves 3 and 4
        // open across exec (the copies above 9 stay open in the browser,
        // unused).
        unsafe {
            command.pre_exec(move || {
                let reads = libc::fcntl(browser_reads, libc::F_DUPFD, 10);
                let writes = libc::fcntl(browser_writes, libc::F_DUPFD, 10);
                if reads < 0 || writes < 0 || libc::dup2(reads, 3) < 0 || libc::dup2(writes, 4) < 0
                {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let browser = command
            .spawn()
            .unwrap_or_else(|e| panic!("starting {}: {e}", chromium.display()));
        // The browser's ends stay with the browser alone: its replies end
        // when it exits.
        drop((from_test, to_test));
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(from_browser);
            let mut message = Vec::new();
            while reader.read_until(0, &mut message).is_ok_and(|n| n > 0) {
                message.pop_if(|b| *b == 0);
                let Ok(value) = serde_json::from_slice(&message) else {
                    break;
                };
                if sender.send(value).is_err() {
                    break;
                }
                message.clear();
            }
        });
        let mut page = Page {
            browser,
            commands: RefCell::new(to_browser),
            messages,
            next_id: Cell::new(0),
            session: String::new(),
            events: RefCell::new(Vec::new()),
            _profile: profile,
        };
        let target = page.send(None, "Target.createTarget", json!({ "url": "about:blank" }));
        let attached = page.send(
            None,
            "Target.attachToTarget",
            json!({ "targetId": target["targetId"], "flatten": true }),
        );
        page.session = attached["sessionId"].as_str().unwrap().to_string();
        page
    }

    /// Sends `method` to the page's session and returns its result; a
    /// protocol error fails the test, naming the method.
    pub fn call(&self, method: &str, params: Value) -> Value {
        self.send(Some(&self.session), method, params)
    }

    fn send(&self, session: Option<&str>, method: &str, params: Value) -> Value {
        let id = self.next_id.get() + 1;
        self.next_id.set(id);
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        self.commands
            .borrow_mut()
            .write_all(&bytes)
            .unwrap_or_else(|e| panic!("{method}: the browser is gone ({e})"));
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let reply = match self.messages.recv_timeout(left) {
                Ok(reply) => reply,
                Err(RecvTimeoutError::Timeout) => panic!("{method}: no reply in {TIMEOUT:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("{method}: the browser exited"),
            };
            if reply["id"] == id {
                if let Some(error) = reply.get("error") {
                    panic!("{method}: {error}");
                }
                return reply["result"].clone();
            }
            if reply.get("method").is_some() {
                self.events.borrow_mut().push(reply);
            }
        }
    }

    /// Opens `url` and returns once its load event has fired.
    pub fn navigate(&self, url: &str) {
        self.call("Page.enable", json!({}));
        let seen = self.events.borrow().len();
        self.call("Page.navigate", json!({ "url": url }));
        let deadline = Instant::now() + TIMEOUT;
        while !self.events.borrow()[seen..]
            .iter()
            .any(|e| e["method"] == "Page.loadEventFired")
        {
            assert!(
                Instant::now() < deadline,
                "{url}: not loaded in {TIMEOUT:?}"
            );
            // A command's round trip takes in the events sent before it.
            self.evaluate("document.readyState");
        }
    }

    /// Runs `expression` in the page and returns its value (as JSON); a
    /// thrown exception fails the test, naming the expression.
    pub fn evaluate(&self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true }),
        );
        if let Some(thrown) = result.get("exceptionDetails") {
            panic!("evaluating {expression}: {thrown}");
        }
        result["result"]["value"].clone()
    }

    /// Waits until an element matches `selector`.
    pub fn wait_for(&self, selector: &str) {
        let deadline = Instant::now() + TIMEOUT;
        let script = format!("document.querySelector({selector:?}) !== null");
        while self.evaluate(&script) != true {
            assert!(
                Instant::now() < deadline,
                "no {selector} in the page after {TIMEOUT:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// What the window shows, as a PNG.
    pub fn screenshot(&self) -> Vec<u8> {
        let shot = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap())
            .unwrap()
    }

    /// The events named `method` received so far, their `params`.
    pub fn events(&self, method: &str) -> Vec<Value> {
        self.events
            .borrow()
            .iter()
            .filter(|e| e["method"] == method)
            .map(|e| e["params"].clone())
            .collect()
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        let _ = self.browser.kill();
        let _ = self.browser.wait();
    }
}
