//! The manager side of the Piskvork protocol: an [`EngineClient`] sends commands to one brain and
//! reads its answers with a deadline, over a [`Transport`].
//!
//! - [`ProcessTransport`] is a real brain: a child process with piped stdin/stdout (stderr is
//!   discarded). A **reader thread** splits stdout into lines (LF, CR LF; invalid UTF-8 replaced)
//!   and sends them over a channel, so a wait has a deadline (`recv_timeout`) and a brain that
//!   exits or closes its output is noticed at once (the channel reports the end). Lines go out
//!   with CR LF, as managers send them. Memory is the brain's anonymous resident memory
//!   (`RssAnon` in `/proc/<pid>/status`, else `VmRSS` on kernels before 4.5; Linux only,
//!   elsewhere unknown and never judged): what the brain allocated (heap, stacks, anonymous
//!   maps), not the shared code and libraries it runs (see tournaments/README.md).
//! - **Memory while thinking.** With a memory limit, a request waits in slices of
//!   [`MEMORY_SAMPLE_MS`] and samples the memory after each slice and at the answer; the peak of
//!   the request is judged, so a brain that goes past the limit and then hangs (or frees the
//!   memory before answering) is caught within a slice, as [`EngineFailure::Memory`].
//! - **Suspension.** [`EngineClient::suspend`] stops the brain's process (`SIGSTOP`, Unix) while
//!   the other brain thinks; anything sent to it, and ending or killing it, resumes it first
//!   (`SIGCONT`), so a suspended brain is never charged time and never left stopped.
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
/// How often the memory of a thinking brain is sampled, in ms.
pub const MEMORY_SAMPLE_MS: u64 = 20;

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
    /// The brain's memory in bytes (anonymous resident memory), if known.
    fn memory_bytes(&self) -> Option<u64>;
    /// Stops the brain's process until [`Transport::resume`] (no-op where that is not possible).
    fn suspend(&mut self) {}
    /// Lets a suspended brain run again.
    fn resume(&mut self) {}
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
        anonymous_memory(&status)
    }

    fn suspend(&mut self) {
        if self.ended.is_none() {
            signal::stop(self.child.id());
        }
    }

    fn resume(&mut self) {
        if self.ended.is_none() {
            signal::cont(self.child.id());
        }
    }

    fn kill(&mut self) -> String {
        if let Some(text) = &self.ended {
            return text.clone();
        }
        self.resume();
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
        self.resume();
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

/// The memory judged, from the text of `/proc/<pid>/status`: `RssAnon`, else `VmRSS`, in bytes.
pub fn anonymous_memory(status: &str) -> Option<u64> {
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    };
    field("RssAnon:").or_else(|| field("VmRSS:"))
}

/// `SIGSTOP` / `SIGCONT` through the C library's `kill` (no crate needed for two calls).
#[cfg(all(
    unix,
    not(any(target_arch = "mips", target_arch = "mips64", target_arch = "sparc64"))
))]
mod signal {
    unsafe extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }

    #[cfg(any(target_os = "linux", target_os = "android"))]
    const STOP_CONT: (i32, i32) = (19, 18);
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    const STOP_CONT: (i32, i32) = (17, 19);

    fn send(pid: u32, sig: i32) {
        if let Ok(pid) = i32::try_from(pid) {
            // SAFETY: `kill` only reads its two integer arguments; `pid` is our own child's id
            // (positive, so never a process group or "every process"). A failure (the child
            // has exited) is harmless and ignored.
            unsafe {
                kill(pid, sig);
            }
        }
    }

    pub fn stop(pid: u32) {
        send(pid, STOP_CONT.0);
    }

    pub fn cont(pid: u32) {
        send(pid, STOP_CONT.1);
    }
}

/// Elsewhere brains are never suspended (as if `pondering = true`).
#[cfg(not(all(
    unix,
    not(any(target_arch = "mips", target_arch = "mips64", target_arch = "sparc64"))
)))]
mod signal {
    pub fn stop(_pid: u32) {}
    pub fn cont(_pid: u32) {}
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
    /// The brain's memory went past the limit while it was thinking.
    #[error("{} MiB ({bytes} bytes) of anonymous resident memory, limit {} MiB", bytes >> 20, limit >> 20)]
    Memory {
        /// The peak seen.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
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
    suspended: bool,
    memory_limit: Option<u64>,
    peak: Option<u64>,
}

impl EngineClient {
    /// A client over a started transport.
    pub fn new(transport: Box<dyn Transport>, clock: Arc<dyn Clock>) -> EngineClient {
        EngineClient {
            transport,
            clock,
            messages: VecDeque::new(),
            alive: true,
            suspended: false,
            memory_limit: None,
            peak: None,
        }
    }

    /// Judges memory during requests: more than `limit` bytes at any sample fails the request
    /// (`None`: not judged).
    pub fn set_memory_limit(&mut self, limit: Option<u64>) {
        self.memory_limit = limit;
    }

    /// The highest memory sampled during the last request, if known.
    pub fn peak_memory(&self) -> Option<u64> {
        self.peak
    }

    /// Whether the brain is suspended.
    pub fn is_suspended(&self) -> bool {
        self.suspended
    }

    /// Stops the brain until it is next sent something (see the module doc).
    pub fn suspend(&mut self) {
        if self.alive && !self.suspended {
            self.transport.suspend();
            self.suspended = true;
        }
    }

    fn resume(&mut self) {
        if self.suspended {
            self.transport.resume();
            self.suspended = false;
        }
    }

    /// Samples the memory; `Err` when it is past the limit.
    fn sample_memory(&mut self) -> Result<(), EngineFailure> {
        let Some(limit) = self.memory_limit else {
            return Ok(());
        };
        if let Some(bytes) = self.transport.memory_bytes() {
            let peak = self.peak.map_or(bytes, |p| p.max(bytes));
            self.peak = Some(peak);
            if peak > limit {
                self.kill();
                return Err(EngineFailure::Memory { bytes: peak, limit });
            }
        }
        Ok(())
    }

    /// Whether the brain is still believed to run.
    pub fn is_alive(&self) -> bool {
        self.alive
    }

    /// The last `MESSAGE`/`ERROR` lines.
    pub fn messages(&self) -> impl Iterator<Item = &str> {
        self.messages.iter().map(String::as_str)
    }

    /// Forgets the kept `MESSAGE`/`ERROR` lines.
    pub fn clear_messages(&mut self) {
        self.messages.clear();
    }

    /// Sends lines that need no answer (`INFO …`).
    pub fn send(&mut self, lines: &[String]) -> Result<(), EngineFailure> {
        self.resume();
        for line in lines {
            if let Err(e) = self.transport.send(line) {
                return Err(self.gone(&e.to_string()));
            }
        }
        Ok(())
    }

    /// Sends `lines` and waits at most `limit_ms` for the answer. With `skip_errors`, `ERROR`
    /// lines are kept as messages and the wait goes on. With a memory limit, the memory is
    /// sampled while waiting and at the answer.
    pub fn request(
        &mut self,
        lines: &[String],
        limit_ms: u64,
        skip_errors: bool,
    ) -> Result<Answer, EngineFailure> {
        self.send(lines)?;
        self.peak = None;
        let start = self.clock.now_ms();
        let slice = if self.memory_limit.is_some() {
            MEMORY_SAMPLE_MS
        } else {
            u64::MAX
        };
        loop {
            let elapsed = self.clock.now_ms().saturating_sub(start);
            if elapsed > limit_ms {
                return Err(EngineFailure::Timeout {
                    limit_ms,
                    elapsed_ms: elapsed,
                });
            }
            // One millisecond more than the limit, so an answer exactly at the limit counts.
            let wait = Duration::from_millis((limit_ms - elapsed + 1).min(slice));
            let received = self.transport.recv(wait);
            if received != Received::Closed {
                self.sample_memory()?;
            }
            match received {
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
        self.resume();
        if self.alive {
            self.transport.end();
        } else {
            self.transport.kill();
        }
    }

    /// Kills the brain now (after a time loss, a crash, …) and says how it ended.
    pub fn kill(&mut self) -> String {
        self.resume();
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
    /// `(delay_ms, line)`, the delay advancing the fake clock. `memory` gives the memory at a
    /// time of the fake clock. `events`, when given, is a log shared by several brains:
    /// `"<id> send <line>"`, `"<id> think"` (a wait for an answer), `"<id> suspend"`,
    /// `"<id> resume"`.
    pub(crate) struct Scripted {
        pub(crate) clock: Arc<FakeClock>,
        pub(crate) answers: VecDeque<(u64, Received)>,
        pub(crate) sent: Arc<Mutex<Vec<String>>>,
        pub(crate) memory: fn(u64) -> Option<u64>,
        pub(crate) events: Option<(usize, Arc<Mutex<Vec<String>>>)>,
    }

    impl Scripted {
        fn event(&self, what: &str) {
            if let Some((id, log)) = &self.events {
                log.lock().unwrap().push(format!("{id} {what}"));
            }
        }
    }

    impl Transport for Scripted {
        fn send(&mut self, line: &str) -> io::Result<()> {
            self.event(&format!("send {line}"));
            self.sent.lock().unwrap().push(line.to_string());
            Ok(())
        }
        fn suspend(&mut self) {
            self.event("suspend");
        }
        fn resume(&mut self) {
            self.event("resume");
        }
        fn recv(&mut self, timeout: Duration) -> Received {
            self.event("think");
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
            (self.memory)(self.clock.now_ms())
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
            memory: |_| None,
            events: None,
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
    fn memory_is_sampled_while_the_brain_thinks() {
        // 10 MiB until 100 ms, then 500 MiB; the answer would come at 1000 ms.
        fn hog(now: u64) -> Option<u64> {
            Some(if now < 100 { 10 << 20 } else { 500 << 20 })
        }
        let clock = Arc::new(FakeClock::default());
        let t = Scripted {
            clock: Arc::clone(&clock),
            answers: vec![(1000, line("7,7"))].into(),
            sent: Arc::new(Mutex::new(Vec::new())),
            memory: hog,
            events: None,
        };
        let mut c = EngineClient::new(Box::new(t), clock.clone());
        c.set_memory_limit(Some(100 << 20));
        let e = c.request(&["TURN 1,1".into()], 2000, true).unwrap_err();
        assert_eq!(
            e,
            EngineFailure::Memory {
                bytes: 500 << 20,
                limit: 100 << 20
            }
        );
        assert!(
            clock.now_ms() < 100 + 2 * MEMORY_SAMPLE_MS,
            "{}",
            clock.now_ms()
        );
        assert!(!c.is_alive());
        // Under the limit the peak is kept for the record.
        let (mut c, _) = client(vec![(30, line("7,7"))]);
        c.set_memory_limit(Some(100 << 20));
        assert!(c.request(&["TURN 1,1".into()], 2000, true).is_ok());
        assert_eq!(c.peak_memory(), None, "this brain's memory is unknown");
    }

    #[test]
    fn the_anonymous_resident_memory_is_judged() {
        let status = "Name:\tx\nVmHWM:\t  90000 kB\nVmRSS:\t  80000 kB\nRssAnon:\t  60000 kB\n\
                      RssFile:\t  20000 kB\n";
        assert_eq!(anonymous_memory(status), Some(60000 * 1024));
        assert_eq!(anonymous_memory("VmRSS:\t 8 kB\n"), Some(8192));
        assert_eq!(anonymous_memory("Name: x\n"), None);
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
