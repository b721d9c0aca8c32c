//! A minimal LSP client that drives the real `skillgraph lsp` binary over stdio, as an editor
//! does: the end-to-end tests (`tests/`) and the LSP bench (`server/benches/lsp.rs`) both speak to
//! the server through it. Every read has a timeout, so a broken server fails a test instead of
//! hanging it, and every message is stamped when it arrives, so a slow consumer does not inflate
//! the bench's times. Messages are `serde_json` values: no LSP types, on purpose (the tests check
//! the wire format itself).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long any single wait for the server may take, unless [`Client::with_timeout`] says
/// otherwise.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// The `skillgraph` binary, built once per process. Integration tests of another crate do not
/// get `CARGO_BIN_EXE_skillgraph`, so it is built with the cargo that runs them and found next to
/// the running executable (`target/<profile>/`); `SKILLGRAPH_BIN` names another one.
pub fn binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        if let Some(path) = std::env::var_os("SKILLGRAPH_BIN") {
            return PathBuf::from(path);
        }
        let exe = std::env::current_exe().expect("test executable path");
        // target/<profile>/deps/<test> -> target/<profile>/skillgraph, built with the same profile
        // (`debug` is the directory of the dev and test profiles, `release` of release and bench).
        let profile_dir = exe.parent().and_then(Path::parent).expect("target dir");
        let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
            Some("debug") | None => "dev",
            Some(other) => other,
        };
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .nth(2)
            .expect("the workspace root");
        let status = Command::new(cargo)
            .args(["build", "-q", "-p", "skillgraph", "--bin", "skillgraph"])
            .args(["--profile", profile])
            .current_dir(workspace)
            .status()
            .expect("run cargo build");
        assert!(status.success(), "cargo build -p skillgraph failed");
        let binary = profile_dir.join(format!("skillgraph{}", std::env::consts::EXE_SUFFIX));
        assert!(binary.exists(), "{} was not built", binary.display());
        binary
    })
}

/// A `file://` URI for `path`, percent-encoding every byte outside the unreserved set.
pub fn file_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for byte in path.to_string_lossy().bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => {
                uri.push(byte as char)
            }
            other => uri.push_str(&format!("%{other:02X}")),
        }
    }
    uri
}

/// The params of an `initialize` request with these capabilities and `root` as the root URI and
/// the one workspace folder (those of [`Client::start`]).
pub fn initialize_params(root: &Path, capabilities: Value) -> Value {
    let uri = file_uri(root);
    json!({
        "processId": null,
        "rootUri": uri,
        "capabilities": capabilities,
        "workspaceFolders": [{"uri": uri, "name": "fixture"}],
    })
}

/// A language server under test, spoken to as an editor would.
pub struct Client {
    child: Child,
    stdin: Arc<Mutex<Option<ChildStdin>>>,
    /// Each message with the moment it arrived.
    incoming: Receiver<(Instant, Value)>,
    /// Messages received and not yet consumed by a wait.
    pending: VecDeque<(Instant, Value)>,
    /// Every message received, for assertions about what happened at all (empty when `quiet`).
    pub seen: Vec<Value>,
    next_id: i64,
    timeout: Duration,
    /// Keep neither `seen` nor notifications no wait took: a long measurement's many
    /// diagnostics of other versions are noise.
    quiet: bool,
}

fn write_message(stdin: &Mutex<Option<ChildStdin>>, message: &Value) {
    let body = serde_json::to_vec(message).unwrap();
    let mut frame = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    frame.extend_from_slice(&body);
    write_bytes(stdin, &frame);
}

fn write_bytes(stdin: &Mutex<Option<ChildStdin>>, bytes: &[u8]) {
    let mut stdin = stdin.lock().unwrap();
    // A server that died shows up as a timeout on the next read, with a clearer message.
    if let Some(stdin) = stdin.as_mut() {
        let _ = stdin.write_all(bytes);
        let _ = stdin.flush();
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length:") {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    /// Starts `skillgraph lsp` and runs `initialize` / `initialized` with these capabilities and
    /// `root` as the one workspace folder.
    pub fn start(root: &Path, capabilities: Value) -> (Client, Value) {
        Client::start_with(initialize_params(root, capabilities))
    }

    /// Starts `skillgraph lsp` and runs `initialize` (with these params) / `initialized`.
    pub fn start_with(initialize: Value) -> (Client, Value) {
        Client::start_with_env(initialize, &[])
    }

    /// Like `start_with`, with extra environment variables for the server process.
    pub fn start_with_env(initialize: Value, env: &[(&str, &str)]) -> (Client, Value) {
        let mut client = Client::spawn(env, true);
        let result = client.request("initialize", initialize);
        client.notify("initialized", json!({}));
        (client, result)
    }

    /// Starts `skillgraph lsp` ([`binary`]) and nothing more. A client that does not `answer`
    /// leaves every request of the server (progress tokens, registrations) unanswered, as a
    /// broken editor would.
    pub fn spawn(env: &[(&str, &str)], answer: bool) -> Client {
        Client::spawn_binary(binary(), env, answer)
    }

    /// Starts `<binary> lsp` and nothing more (a bench has `CARGO_BIN_EXE_skillgraph`).
    pub fn spawn_binary(binary: &Path, env: &[(&str, &str)], answer: bool) -> Client {
        let mut command = Command::new(binary);
        command.arg("lsp").envs(env.iter().copied());
        Client::spawn_command(command, answer)
    }

    /// Starts `skillgraph lsp` ([`binary`]) as a client that answers the server's requests whose
    /// method `answers` accepts (with an empty success) and leaves the others unanswered, as an
    /// editor that never answers one kind of request does.
    pub fn spawn_answering(env: &[(&str, &str)], answers: fn(&str) -> bool) -> Client {
        let mut command = Command::new(binary());
        command.arg("lsp").envs(env.iter().copied());
        Client::spawn_command_answering(command, answers)
    }

    /// Starts a command that runs the server (`<binary> lsp`, or the binary under a tool such as
    /// valgrind) and speaks to it over its stdin and stdout; stderr is inherited.
    pub fn spawn_command(command: Command, answer: bool) -> Client {
        Client::spawn_command_answering(command, if answer { |_| true } else { |_| false })
    }

    fn spawn_command_answering(mut command: Command, answers: fn(&str) -> bool) -> Client {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn skillgraph lsp");
        let stdin = Arc::new(Mutex::new(child.stdin.take()));
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = mpsc::channel();
        let replies = stdin.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                let arrived = Instant::now();
                // Requests from the server (progress tokens, registrations) get an empty success,
                // unless `answers` leaves them unanswered.
                if message["method"].as_str().is_some_and(answers) {
                    if let Some(id) = message.get("id") {
                        write_message(
                            &replies,
                            &json!({"jsonrpc": "2.0", "id": id, "result": null}),
                        );
                    }
                }
                if tx.send((arrived, message)).is_err() {
                    break;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming,
            pending: VecDeque::new(),
            seen: Vec::new(),
            next_id: 1,
            timeout: TIMEOUT,
            quiet: false,
        }
    }

    /// The longest any one wait may take.
    pub fn with_timeout(mut self, timeout: Duration) -> Client {
        self.timeout = timeout;
        self
    }

    /// Keeps no record of what was seen, and drops the notifications no wait took as they
    /// arrive: for measurements that send thousands of messages.
    pub fn quiet(mut self) -> Client {
        self.quiet = true;
        self
    }

    /// Writes bytes as they are, frame or not.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        write_bytes(&self.stdin, bytes);
    }

    /// Closes the server's stdin, as an editor that goes away does.
    pub fn close_stdin(&mut self) {
        self.stdin.lock().unwrap().take();
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits up to `within` for the server to exit; its status and how long it took.
    pub fn wait_exit(&mut self, within: Duration) -> Option<(std::process::ExitStatus, Duration)> {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some((status, started.elapsed()));
            }
            if started.elapsed() > within {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// The next message id this client will use.
    pub fn next_id(&mut self) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        write_message(
            &self.stdin,
            &json!({"jsonrpc": "2.0", "method": method, "params": params}),
        );
    }

    /// Sends `textDocument/didOpen`: the editor opened `uri` (in the language `language_id`)
    /// holding `text`, as its `version`.
    pub fn open(&mut self, uri: &str, language_id: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {
                "uri": uri, "languageId": language_id, "version": version, "text": text,
            }}),
        );
    }

    /// Sends `textDocument/didChange` for the open document `uri`, now at `version`: `range`
    /// (start line, start character, end line, end character) replaced by `text`.
    pub fn edit(&mut self, uri: &str, version: i64, range: [u32; 4], text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{
                    "range": {
                        "start": {"line": range[0], "character": range[1]},
                        "end": {"line": range[2], "character": range[3]},
                    },
                    "text": text,
                }],
            }),
        );
    }

    /// The server's peak resident set size in KiB (`VmHWM` in `/proc/<pid>/status`; 0 where there
    /// is no such file).
    pub fn peak_rss_kib(&self) -> u64 {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    /// Sends a request without waiting; its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id();
        write_message(
            &self.stdin,
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        );
        id
    }

    /// Sends a request and waits for its response; returns `result`, panics on an error.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.request_raw(method, params);
        if let Some(error) = response.get("error") {
            panic!("{method} failed: {error}");
        }
        response["result"].clone()
    }

    /// Sends a request and returns the whole response message.
    pub fn request_raw(&mut self, method: &str, params: Value) -> Value {
        self.timed_request(method, params).1
    }

    /// Sends a request and returns its round trip (until the response arrived) and the whole
    /// response message.
    pub fn timed_request(&mut self, method: &str, params: Value) -> (Duration, Value) {
        let sent = Instant::now();
        let id = self.send_request(method, params);
        let (arrived, response) = self.wait_for_timed(&format!("the response to {method}"), |m| {
            m.get("method").is_none() && m["id"] == json!(id)
        });
        (arrived.saturating_duration_since(sent), response)
    }

    /// Waits for the first unconsumed message matching `accept`, and consumes it.
    pub fn wait_for(&mut self, what: &str, accept: impl Fn(&Value) -> bool) -> Value {
        self.wait_for_timed(what, accept).1
    }

    /// Like `wait_for`, with the moment the message arrived.
    pub fn wait_for_timed(
        &mut self,
        what: &str,
        accept: impl Fn(&Value) -> bool,
    ) -> (Instant, Value) {
        if let Some(at) = self.pending.iter().position(|(_, m)| accept(m)) {
            return self.pending.remove(at).unwrap();
        }
        let deadline = Instant::now() + self.timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.incoming.recv_timeout(left) {
                Ok((arrived, message)) => {
                    if !self.quiet {
                        self.seen.push(message.clone());
                    }
                    if accept(&message) {
                        return (arrived, message);
                    }
                    // Quiet, only responses are kept (a later wait may be for one).
                    if !self.quiet || message.get("method").is_none() {
                        self.pending.push_back((arrived, message));
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    let pending: Vec<&Value> = self.pending.iter().map(|(_, m)| m).collect();
                    panic!("timed out waiting for {what}; unconsumed: {pending:#?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the server closed its output while waiting for {what}")
                }
            }
        }
    }

    /// Waits until the messages seen so far satisfy `accept` (true) or the timeout passes
    /// (false).
    pub fn seen_eventually(&mut self, accept: impl Fn(&[Value]) -> bool) -> bool {
        let deadline = Instant::now() + self.timeout;
        while !accept(&self.seen) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            match self
                .incoming
                .recv_timeout(left.min(Duration::from_millis(100)))
            {
                Ok((arrived, message)) => {
                    self.seen.push(message.clone());
                    self.pending.push_back((arrived, message));
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return accept(&self.seen),
            }
        }
        true
    }

    /// The next `publishDiagnostics` for `uri`: its diagnostics and version.
    pub fn diagnostics(&mut self, uri: &str) -> (Vec<Value>, Value) {
        let message = self.wait_for(&format!("diagnostics for {uri}"), |m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        let params = &message["params"];
        (
            params["diagnostics"]
                .as_array()
                .cloned()
                .unwrap_or_default(),
            params["version"].clone(),
        )
    }

    /// Asks the server to stop, as an editor does on close; returns the exit status.
    pub fn shutdown(mut self) -> std::process::ExitStatus {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + self.timeout;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
