//! Writing a tournament's files into its output folder:
//!
//! ```text
//! <output>/games.jsonl            one JSON line per game, in schedule order, written as games end
//! <output>/games/0001-a-vs-b.psq  Piskvork record of each game
//! <output>/games/0001-a-vs-b.sgf  SGF record of each game
//! <output>/report.html            the self-contained report, written at the end
//! ```
//!
//! A folder that already holds anything is refused ([`existing_entries`] says what is there), so
//! the records of two runs never mix; asked to replace it (`--force`, `overwrite = true`), the
//! writer removes the files above — and only those — before the first game.
//!
//! Games may finish out of order when several run in parallel; the writer holds a finished game
//! back until every earlier one is written, so the log's order never depends on timing.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::records::{GameRecord, to_json, to_psq, to_sgf};

/// The files and folders this writer makes, relative to the output folder.
pub const OWN_ENTRIES: [&str; 3] = ["games.jsonl", "games", "report.html"];

/// The names of what `dir` holds (sorted; empty when it does not exist).
pub fn existing_entries(dir: &Path) -> io::Result<Vec<String>> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut names = entries
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<io::Result<Vec<_>>>()?;
    names.sort();
    Ok(names)
}

/// Writes records as games end.
pub struct OutputWriter {
    dir: PathBuf,
    log: BufWriter<File>,
    waiting: BTreeMap<usize, GameRecord>,
    next: usize,
}

impl OutputWriter {
    /// Creates the folder (and `games/`) and an empty log, first removing the records of an
    /// earlier run ([`OWN_ENTRIES`]). Whether the folder may be used is the caller's check.
    pub fn create(dir: &Path) -> io::Result<OutputWriter> {
        for name in OWN_ENTRIES {
            let path = dir.join(name);
            match fs::symlink_metadata(&path) {
                Ok(m) if m.is_dir() => fs::remove_dir_all(&path)?,
                Ok(_) => fs::remove_file(&path)?,
                Err(_) => {}
            }
        }
        fs::create_dir_all(dir.join("games"))?;
        let log = BufWriter::new(File::create(dir.join("games.jsonl"))?);
        Ok(OutputWriter {
            dir: dir.to_path_buf(),
            log,
            waiting: BTreeMap::new(),
            next: 0,
        })
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Takes a finished game; writes it and any games it was holding back, in order.
    pub fn add(&mut self, record: &GameRecord) -> io::Result<()> {
        self.waiting.insert(record.index, record.clone());
        while let Some(r) = self.waiting.remove(&self.next) {
            self.write(&r)?;
            self.next += 1;
        }
        Ok(())
    }

    fn write(&mut self, r: &GameRecord) -> io::Result<()> {
        writeln!(self.log, "{}", to_json(r))?;
        self.log.flush()?;
        let stem = self.dir.join("games").join(r.file_stem());
        fs::write(stem.with_extension("psq"), to_psq(r))?;
        fs::write(stem.with_extension("sgf"), to_sgf(r))?;
        Ok(())
    }

    /// Writes what is still held back (games after a gap, which only a stopped run leaves) and
    /// the report.
    pub fn finish(mut self, html: &str) -> io::Result<PathBuf> {
        for r in std::mem::take(&mut self.waiting).into_values() {
            self.write(&r)?;
        }
        self.log.flush()?;
        let report = self.dir.join("report.html");
        fs::write(&report, html)?;
        Ok(report)
    }
}
