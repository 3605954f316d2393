//! The manager side of the Piskvork protocol: an [`EngineClient`] sends commands to one brain and
//! reads its answers with a deadline, over a [`Transport`].
//!
//! - [`ProcessTransport`] is a real brain: a child process with piped stdin/stdout (stderr is
//!   discarded). A **reader thread** splits stdout into lines (LF, CR LF; invalid UTF-8 replaced)
//!   and sends them over a channel, so a wait has a deadline (`recv_timeout`) and a brain that
//!   exits or closes its output is noticed at once (the channel reports the end). Lines go out
//!   with CR LF, as managers send them. Resident memory is read from `/proc/<pid>/status`
//!   (`VmRSS`, Linux; elsewhere unknown and never judged).
//! - Answers: `MESSAGE`, `DEBUG` and blank lines are skipped (the last few `MESSAGE`/`ERROR` lines
//!   are kept for the record); while a move is awaited `ERROR` lines are skipped too (brains
//!   report `INFO` problems that way, before their next answer) — a brain that answers only
//!   `ERROR` runs out of time. Anything else is the answer.
//! - Time is measured on the injected [`Clock`] from the moment the last line of the request has
//!   been written; the wait itself is bounded by the limit computed on the same clock, so a test
//!   transport can advance a fake clock instead of sleeping.
//! - [`EngineFailure`] says why a request got no usable answer: the deadline passed, or the brain
//!   is gone (its exit status when it could be had).

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use thiserror::Error;

use crate::time::Clock;

/// How many `MESSAGE`/`ERROR` lines are kept per engine.
const KEPT_MESSAGES: usize = 8;
/// How long a brain may take to exit after `END` before it is killed.
const END_GRACE: Duration = Duration::from_millis(1000);

/// What a wait for a line produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Received {
    /// A line (without its line end).
    Line(String),
    /// Nothing within the time.
    Timeout,
    /// The brain's output has ended.
    Closed,
}

/// A line-based connection to one brain.
pub trait Transport: Send {
    /// Writes one line (the transport adds the line end).
    fn send(&mut self, line: &str) -> io::Result<()>;
    /// The next line, waiting at most `timeout`.
    fn recv(&mut self, timeout: Duration) -> Received;
    /// The brain's resident memory in bytes, if known.
    fn memory_bytes(&self) -> Option<u64>;
    /// Ends the brain at once and says how it ended (`exit status: 3`, `killed`).
    fn kill(&mut self) -> String;
    /// Sends `END` and lets the brain exit by itself, killing it after a grace period.
    fn end(&mut self);
}

/// Starts brains.
pub trait Spawner: Send + Sync {
    /// Starts engine `index` of the tournament.
    fn spawn(&self, index: usize) -> io::Result<Box<dyn Transport>>;
}

/// How to start one brain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessCommand {
    /// The executable.
    pub command: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
}

/// Starts brains as child processes.
pub struct ProcessSpawner {
    /// The command of each engine.
    pub commands: Vec<ProcessCommand>,
}

impl Spawner for ProcessSpawner {
    fn spawn(&self, index: usize) -> io::Result<Box<dyn Transport>> {
        let c = self
            .commands
            .get(index)
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, format!("no engine {index}")))?;
        Ok(Box::new(ProcessTransport::spawn(c)?))
    }
}

/// A brain running as a child process.
pub struct ProcessTransport {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    ended: Option<String>,
}

impl ProcessTransport {
    /// Starts the process and its reader thread.
    pub fn spawn(c: &ProcessCommand) -> io::Result<ProcessTransport> {
        let mut child = Command::new(&c.command)
            .args(&c.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", c.command.display())))?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel();
        thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf);
                            let line = line.trim_end_matches(['\n', '\r']).to_string();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })?;
        Ok(ProcessTransport {
            child,
            stdin,
            lines,
            ended: None,
        })
    }

    fn status_text(status: std::process::ExitStatus) -> String {
        match status.code() {
            Some(code) => format!("exit status {code}"),
            None => format!("ended by a signal ({status})"),
        }
    }
}

impl Transport for ProcessTransport {
    fn send(&mut self, line: &str) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "input closed"))?;
        stdin.write_all(line.as_bytes())?;
        stdin.write_all(b"\r\n")?;
        stdin.flush()
    }

    fn recv(&mut self, timeout: Duration) -> Received {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Received::Line(line),
            Err(RecvTimeoutError::Timeout) => Received::Timeout,
            Err(RecvTimeoutError::Disconnected) => Received::Closed,
        }
    }

    fn memory_bytes(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    }

    fn kill(&mut self) -> String {
        if let Some(text) = &self.ended {
            return text.clone();
        }
        self.stdin = None;
        let text = match self.child.try_wait() {
            Ok(Some(status)) => Self::status_text(status),
            _ => {
                let _ = self.child.kill();
                match self.child.wait() {
                    Ok(status) if status.code().is_some() => Self::status_text(status),
                    _ => "killed".to_string(),
                }
            }
        };
        self.ended = Some(text.clone());
        text
    }

    fn end(&mut self) {
        if self.ended.is_some() {
            return;
        }
        let _ = self.send("END");
        self.stdin = None;
        let step = Duration::from_millis(5);
        let mut waited = Duration::ZERO;
        while waited < END_GRACE {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.ended = Some(Self::status_text(status));
                return;
            }
            thread::sleep(step);
            waited += step;
        }
        self.kill();
    }
}

impl Drop for ProcessTransport {
    fn drop(&mut self) {
        if self.ended.is_none() {
            self.kill();
        }
    }
}

/// Why a request got no usable answer.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EngineFailure {
    /// No answer within the limit (or an answer after it).
    #[error("no answer within {limit_ms} ms (waited {elapsed_ms} ms)")]
    Timeout {
        /// The limit.
        limit_ms: u64,
        /// How long it had been when the wait ended.
        elapsed_ms: u64,
    },
    /// The brain exited, closed its output, or could not be written to or started.
    #[error("the engine is gone: {0}")]
    Gone(String),
}

/// An answer and how long it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The line.
    pub line: String,
    /// Milliseconds from the request to the answer.
    pub elapsed_ms: u64,
}

/// The manager's end of one brain.
pub struct EngineClient {
    transport: Box<dyn Transport>,
    clock: Arc<dyn Clock>,
    messages: VecDeque<String>,
    alive: bool,
}

impl EngineClient {
    /// A client over a started transport.
    pub fn new(transport: Box<dyn Transport>, clock: Arc<dyn Clock>) -> EngineClient {
        EngineClient {
            transport,
            clock,
            messages: VecDeque::new(),
            alive: true,
        }
    }

    /// Whether the brain is still believed to run.
    pub fn is_alive(&self) -> bool {
        self.alive
    }

    /// The last `MESSAGE`/`ERROR` lines.
    pub fn messages(&self) -> impl Iterator<Item = &str> {
        self.messages.iter().map(String::as_str)
    }

    /// The brain's resident memory, if known.
    pub fn memory_bytes(&self) -> Option<u64> {
        self.transport.memory_bytes()
    }

    /// Sends lines that need no answer (`INFO …`).
    pub fn send(&mut self, lines: &[String]) -> Result<(), EngineFailure> {
        for line in lines {
            if let Err(e) = self.transport.send(line) {
                return Err(self.gone(&e.to_string()));
            }
        }
        Ok(())
    }

    /// Sends `lines` and waits at most `limit_ms` for the answer. With `skip_errors`, `ERROR`
    /// lines are kept as messages and the wait goes on.
    pub fn request(
        &mut self,
        lines: &[String],
        limit_ms: u64,
        skip_errors: bool,
    ) -> Result<Answer, EngineFailure> {
        self.send(lines)?;
        let start = self.clock.now_ms();
        loop {
            let elapsed = self.clock.now_ms().saturating_sub(start);
            if elapsed > limit_ms {
                return Err(EngineFailure::Timeout {
                    limit_ms,
                    elapsed_ms: elapsed,
                });
            }
            // One millisecond more than the limit, so an answer exactly at the limit counts.
            let wait = Duration::from_millis(limit_ms - elapsed + 1);
            match self.transport.recv(wait) {
                Received::Line(line) => {
                    let trimmed = line.trim();
                    let upper = trimmed.to_ascii_uppercase();
                    if trimmed.is_empty() || upper.starts_with("DEBUG") {
                        continue;
                    }
                    if upper.starts_with("MESSAGE") || (skip_errors && upper.starts_with("ERROR")) {
                        self.keep(trimmed);
                        continue;
                    }
                    let elapsed_ms = self.clock.now_ms().saturating_sub(start);
                    if elapsed_ms > limit_ms {
                        return Err(EngineFailure::Timeout {
                            limit_ms,
                            elapsed_ms,
                        });
                    }
                    return Ok(Answer {
                        line: trimmed.to_string(),
                        elapsed_ms,
                    });
                }
                Received::Timeout => continue,
                Received::Closed => return Err(self.gone("closed its output")),
            }
        }
    }

    /// `START size` → `OK`.
    pub fn start(&mut self, size: usize, limit_ms: u64) -> Result<(), EngineFailure> {
        let a = self.request(&[format!("START {size}")], limit_ms, false)?;
        if a.line.eq_ignore_ascii_case("OK") {
            Ok(())
        } else {
            Err(EngineFailure::Gone(format!(
                "answered '{}' to START {size}",
                a.line
            )))
        }
    }

    /// `RESTART`: `Ok(true)` for `OK`, `Ok(false)` for any other answer (the brain must be
    /// started afresh).
    pub fn restart(&mut self, limit_ms: u64) -> Result<bool, EngineFailure> {
        let a = self.request(&["RESTART".to_string()], limit_ms, true)?;
        Ok(a.line.eq_ignore_ascii_case("OK"))
    }

    /// Ends the brain: `END`, then a kill after a grace period.
    pub fn end(mut self) {
        if self.alive {
            self.transport.end();
        } else {
            self.transport.kill();
        }
    }

    /// Kills the brain now (after a time loss, a crash, …) and says how it ended.
    pub fn kill(&mut self) -> String {
        self.alive = false;
        self.transport.kill()
    }

    fn keep(&mut self, line: &str) {
        if self.messages.len() == KEPT_MESSAGES {
            self.messages.pop_front();
        }
        self.messages.push_back(line.to_string());
    }

    fn gone(&mut self, what: &str) -> EngineFailure {
        let status = self.kill();
        EngineFailure::Gone(format!("{what} ({status})"))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::time::FakeClock;
    use std::sync::Mutex;

    /// A scripted brain: each request's lines are logged; answers come from a queue of
    /// `(delay_ms, line)`, the delay advancing the fake clock.
    pub(crate) struct Scripted {
        pub(crate) clock: Arc<FakeClock>,
        pub(crate) answers: VecDeque<(u64, Received)>,
        pub(crate) sent: Arc<Mutex<Vec<String>>>,
        pub(crate) memory: Option<u64>,
    }

    impl Transport for Scripted {
        fn send(&mut self, line: &str) -> io::Result<()> {
            self.sent.lock().unwrap().push(line.to_string());
            Ok(())
        }
        fn recv(&mut self, timeout: Duration) -> Received {
            match self.answers.pop_front() {
                Some((delay, r)) if Duration::from_millis(delay) < timeout => {
                    self.clock.advance(delay);
                    r
                }
                Some((delay, r)) => {
                    // Not within this wait: the time passes, the answer stays queued.
                    let waited = timeout.as_millis() as u64;
                    self.clock.advance(waited);
                    self.answers.push_front((delay - waited, r));
                    Received::Timeout
                }
                None => {
                    self.clock.advance(timeout.as_millis() as u64);
                    Received::Timeout
                }
            }
        }
        fn memory_bytes(&self) -> Option<u64> {
            self.memory
        }
        fn kill(&mut self) -> String {
            "killed".into()
        }
        fn end(&mut self) {}
    }

    fn client(answers: Vec<(u64, Received)>) -> (EngineClient, Arc<Mutex<Vec<String>>>) {
        let clock = Arc::new(FakeClock::default());
        let sent = Arc::new(Mutex::new(Vec::new()));
        let t = Scripted {
            clock: Arc::clone(&clock),
            answers: answers.into(),
            sent: Arc::clone(&sent),
            memory: None,
        };
        (EngineClient::new(Box::new(t), clock), sent)
    }

    fn line(s: &str) -> Received {
        Received::Line(s.into())
    }

    #[test]
    fn skips_messages_and_measures_on_the_clock() {
        let (mut c, sent) = client(vec![
            (10, line("MESSAGE thinking")),
            (5, line("DEBUG x")),
            (20, line("ERROR bad INFO")),
            (30, line("7,7")),
        ]);
        let a = c.request(&["TURN 6,6".into()], 100, true).unwrap();
        assert_eq!(a.line, "7,7");
        assert_eq!(a.elapsed_ms, 65);
        assert_eq!(sent.lock().unwrap().as_slice(), ["TURN 6,6"]);
        let kept: Vec<&str> = c.messages().collect();
        assert_eq!(kept, ["MESSAGE thinking", "ERROR bad INFO"]);
    }

    #[test]
    fn late_and_missing_answers_time_out() {
        let (mut c, _) = client(vec![(150, line("7,7"))]);
        let e = c.request(&["TURN 6,6".into()], 100, true).unwrap_err();
        assert!(
            matches!(e, EngineFailure::Timeout { limit_ms: 100, elapsed_ms } if elapsed_ms > 100)
        );
        let (mut c, _) = client(vec![]);
        assert!(matches!(
            c.request(&["BEGIN".into()], 50, true),
            Err(EngineFailure::Timeout { .. })
        ));
    }

    #[test]
    fn a_closed_output_is_a_crash() {
        let (mut c, _) = client(vec![(1, Received::Closed)]);
        let e = c.request(&["TURN 1,1".into()], 100, true).unwrap_err();
        assert_eq!(e, EngineFailure::Gone("closed its output (killed)".into()));
        assert!(!c.is_alive());
    }

    #[test]
    fn start_and_restart_answers() {
        let (mut c, _) = client(vec![(1, line("OK")), (1, line("UNKNOWN RESTART"))]);
        assert!(c.start(15, 100).is_ok());
        assert_eq!(c.restart(100), Ok(false));
        let (mut c, _) = client(vec![(1, line("ERROR unsupported size"))]);
        assert!(matches!(c.start(40, 100), Err(EngineFailure::Gone(m)) if m.contains("ERROR")));
    }
}
