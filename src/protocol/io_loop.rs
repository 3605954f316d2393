//! The I/O loop: a reader thread for the manager's input, a channel to the [`Brain`], and the
//! engine's stop flag.
//!
//! - The **reader thread** splits the input into lines at LF, CR or CR LF (invalid UTF-8 is
//!   replaced, lines over [`MAX_LINE_BYTES`] are refused whole), parses each line and sends it over
//!   the channel. `STOP`, `YXSTOP` and `END` raise the engine's stop flag *at once*, so a search
//!   running on the main thread ends without waiting for its line to be read from the channel.
//!   Other lines do not stop a search (Piskvork sends `INFO evaluate` while the brain thinks);
//!   they wait in the channel and are handled in order afterwards.
//!   The end of input counts as `END` (see below).
//! - Each line carries the time it was read (the engine's clock), and a search counts its turn
//!   from then: time the main thread spent before it took the line (building a new rule's
//!   pattern tables at `INFO rule`, say) comes out of the search's budget, so the answer still
//!   comes within the turn the manager is timing.
//! - The **main thread** owns the brain (and through it the engine and the output): it takes lines
//!   from the channel in order, so a search may run for its whole budget while the reader keeps
//!   reading. The brain flushes after every line.
//! - **Prompt exit.** Once `END` is read, searches still queued before it run with a zero budget
//!   (every queued command is still answered, in order). The reader then waits [`END_GRACE`] for
//!   the main thread to finish; with `exit_on_hang` (the binary) it ends the process itself, so
//!   `END` exits in time even if a search ignored its stop flag. The end of input is handled like
//!   `END` but without that deadline (a piped script is answered to its last line).
//!
//! Known race, harmless with real managers: a `STOP` read before the main thread has *started*
//! the search it was meant for is lost, because [`Engine::go`] clears the flag when it starts
//! (managers send `STOP` only after waiting for a move).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::Duration;

use crate::engine::Engine;
use crate::time::Clock;

use super::brain::{Brain, Flow};
use super::piskvork::{Command, MAX_LINE_BYTES, ProtocolError, parse};

/// How long the reader waits after `END` before ending the process itself.
pub const END_GRACE: Duration = Duration::from_millis(60);

/// One input line, parsed on the reader thread, with the time it was read.
enum Input {
    Line(String, Result<Command, ProtocolError>, u64),
    Eof,
}

/// Runs the brain on stdin and stdout until `END` or the end of input (the binary's default).
pub fn run_stdio(engine: Engine) -> io::Result<()> {
    run(io::stdin(), io::stdout(), engine, true)
}

/// Runs the brain on `input` and `output` until `END` or the end of input. With `exit_on_hang`,
/// the process exits [`END_GRACE`] after `END` if the main thread has not finished by then.
pub fn run<R, W>(input: R, output: W, engine: Engine, exit_on_hang: bool) -> io::Result<()>
where
    R: Read + Send + 'static,
    W: Write,
{
    let flags = Flags {
        stop: engine.stop_handle(),
        end: Arc::new(AtomicBool::new(false)),
    };
    let (tx, rx) = mpsc::channel();
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let clock = engine.clock();
    let mut brain = Brain::new(engine, output);
    brain.set_end_flag(Arc::clone(&flags.end));
    thread::Builder::new()
        .name("piskvork-reader".into())
        .spawn(move || {
            let sender = LineSender {
                tx: &tx,
                flags: &flags,
                clock: clock.as_ref(),
            };
            read_loop(input, &sender, &done_rx, exit_on_hang)
        })?;
    let result = serve(&mut brain, &rx);
    // Tells the reader that the main thread is done (it may still be blocked reading; it is
    // left behind, and ends with the process).
    drop(done_tx);
    result
}

fn serve<W: Write>(brain: &mut Brain<W>, rx: &Receiver<Input>) -> io::Result<()> {
    for input in rx {
        match input {
            Input::Line(raw, parsed, read_ms) => {
                if brain.handle_read_at(&raw, parsed, read_ms)? == Flow::Quit {
                    break;
                }
            }
            Input::Eof => break,
        }
    }
    Ok(())
}

/// The flags the reader raises: the engine's stop flag and the brain's end flag.
struct Flags {
    stop: Arc<AtomicBool>,
    end: Arc<AtomicBool>,
}

impl Flags {
    fn raise(&self, end: bool) {
        self.end.fetch_or(end, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// Where the reader sends its lines, and what it stamps and raises on the way.
struct LineSender<'a> {
    tx: &'a Sender<Input>,
    flags: &'a Flags,
    clock: &'a dyn Clock,
}

fn read_loop<R: Read>(input: R, sender: &LineSender, done: &Receiver<()>, exit_on_hang: bool) {
    let mut reader = BufReader::new(input);
    let mut line: Vec<u8> = Vec::new();
    let mut len = 0usize;
    loop {
        let (consumed, complete) = match reader.fill_buf() {
            Ok([]) => break,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) => {
                    take(&mut line, &mut len, &buf[..i]);
                    (i + 1, true)
                }
                None => {
                    take(&mut line, &mut len, buf);
                    (buf.len(), false)
                }
            },
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        reader.consume(consumed);
        if complete {
            let end = send_line(&line, len, sender);
            line.clear();
            len = 0;
            if end {
                return wait_for_exit(done, exit_on_hang);
            }
        }
    }
    if len > 0 && send_line(&line, len, sender) {
        return wait_for_exit(done, exit_on_hang);
    }
    // The end of input is an `END` without the deadline: what is queued is still answered.
    sender.flags.raise(true);
    let _ = sender.tx.send(Input::Eof);
}

/// Appends `bytes` to the line, keeping at most one byte over the limit.
fn take(line: &mut Vec<u8>, len: &mut usize, bytes: &[u8]) {
    *len += bytes.len();
    let room = (MAX_LINE_BYTES + 1).saturating_sub(line.len());
    line.extend_from_slice(&bytes[..bytes.len().min(room)]);
}

/// Parses and forwards one line; raises the stop flag for `STOP`/`YXSTOP`/`END` (and the end flag
/// for `END`). Returns whether it was `END`.
fn send_line(line: &[u8], len: usize, sender: &LineSender) -> bool {
    let text = String::from_utf8_lossy(line).into_owned();
    if text.trim().is_empty() && len <= MAX_LINE_BYTES {
        return false;
    }
    let parsed = if len > MAX_LINE_BYTES {
        Err(ProtocolError::LineTooLong { len })
    } else {
        parse(&text)
    };
    let end = matches!(parsed, Ok(Command::End));
    if end || matches!(parsed, Ok(Command::Stop)) {
        sender.flags.raise(end);
    }
    let short: String = text.chars().take(200).collect();
    let read_ms = sender.clock.now_ms();
    let _ = sender.tx.send(Input::Line(short, parsed, read_ms));
    end
}

fn wait_for_exit(done: &Receiver<()>, exit_on_hang: bool) {
    if let Err(RecvTimeoutError::Timeout) = done.recv_timeout(END_GRACE) {
        if exit_on_hang {
            let _ = io::stdout().flush();
            std::process::exit(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Params;
    use crate::time::FakeClock;

    fn run_script(input: &[u8]) -> Vec<String> {
        let engine = Engine::new(Params::default(), Arc::new(FakeClock::default()));
        let mut out = Vec::new();
        run(io::Cursor::new(input.to_vec()), &mut out, engine, false).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn lines_end_at_lf_cr_or_crlf_and_blank_lines_are_ignored() {
        let out = run_script(b"ABOUT\r\n\r\nstart 15\rINFO show_detail 0\n\nBEGIN\nEND\nABOUT\n");
        assert_eq!(out.len(), 3, "{out:?}");
        assert!(out[0].starts_with("name=\"omok\""));
        assert_eq!(out[1], "OK");
        assert_eq!(out[2], "7,7");
    }

    #[test]
    fn end_of_input_ends_the_loop_and_a_last_line_without_newline_counts() {
        assert_eq!(run_script(b"START 15"), vec!["OK"]);
        assert!(run_script(b"").is_empty());
    }

    #[test]
    fn invalid_utf8_and_overlong_lines_are_answered_not_fatal() {
        let mut input = b"\xff\xfe garbage\n".to_vec();
        input.extend(std::iter::repeat_n(b'A', MAX_LINE_BYTES + 10));
        input.extend(b"\nABOUT\n");
        let out = run_script(&input);
        assert_eq!(out.len(), 3, "{out:?}");
        assert!(out[0].starts_with("UNKNOWN"));
        assert!(out[1].starts_with("ERROR line of"));
        assert!(out[2].starts_with("name="));
    }

    /// A reader's sending end on a fake clock with lowered flags, and the channel's other end.
    struct TestReader {
        flags: Flags,
        tx: Sender<Input>,
        rx: Receiver<Input>,
        clock: FakeClock,
    }

    impl TestReader {
        fn new() -> TestReader {
            let (tx, rx) = mpsc::channel();
            TestReader {
                flags: Flags {
                    stop: Arc::new(AtomicBool::new(false)),
                    end: Arc::new(AtomicBool::new(false)),
                },
                tx,
                rx,
                clock: FakeClock::default(),
            }
        }

        /// Sends one whole line as the reader does; returns whether it ends the input.
        fn send(&self, line: &[u8]) -> bool {
            let sender = LineSender {
                tx: &self.tx,
                flags: &self.flags,
                clock: &self.clock,
            };
            send_line(line, line.len(), &sender)
        }
    }

    #[test]
    fn stop_and_end_raise_the_flags() {
        let r = TestReader::new();
        let raised = |f: &Arc<AtomicBool>| f.load(Ordering::SeqCst);
        assert!(!r.send(b"TURN 7,7"));
        assert!(!raised(&r.flags.stop));
        assert!(!r.send(b"yxstop"));
        assert!(raised(&r.flags.stop) && !raised(&r.flags.end));
        r.flags.stop.store(false, Ordering::SeqCst);
        assert!(r.send(b"END"));
        assert!(raised(&r.flags.stop) && raised(&r.flags.end));
    }

    #[test]
    fn lines_carry_the_time_they_were_read() {
        let r = TestReader::new();
        r.clock.advance(120);
        r.send(b"INFO rule 4");
        r.clock.advance(80);
        r.send(b"BEGIN");
        let stamps: Vec<u64> =
            r.rx.try_iter()
                .map(|input| match input {
                    Input::Line(_, _, read_ms) => read_ms,
                    Input::Eof => panic!("no end of input was sent"),
                })
                .collect();
        assert_eq!(stamps, [120, 200]);
    }
}
