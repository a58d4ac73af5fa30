//! Input and output shared by the commands: reading a file or standard input, writing to
//! standard output or atomically to a file, and the progress bar.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

/// Reads `path`, or standard input for `-` or no path.
pub fn read_input(path: Option<&Path>) -> Result<Vec<u8>> {
    match path {
        None => read_stdin(),
        Some(p) if p == Path::new("-") => read_stdin(),
        Some(p) => fs::read(p).with_context(|| format!("cannot read {}", p.display())),
    }
}

/// Whether an argument that names no file looks like a puzzle typed inline (digits, `.` and at
/// least 17 characters), so that its error is the parser's (which says what is wrong with it)
/// rather than "no such file".
pub fn looks_like_puzzle(arg: &str) -> bool {
    arg.len() >= 17 && arg.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// [`read_input`], except that an argument that names no file and looks like a puzzle is read as
/// that one puzzle (`shudu solve 53..7....6..`, `shudu grade ...`, as `hint` and `explain` do).
pub fn read_input_or_puzzle(path: Option<&Path>) -> Result<Vec<u8>> {
    if let Some(arg) = path.and_then(Path::to_str) {
        if !Path::new(arg).exists() && looks_like_puzzle(arg) {
            return Ok(format!("{arg}\n").into_bytes());
        }
    }
    read_input(path)
}

/// One record of an input, or why it could not be read.
pub type Item = std::result::Result<shudu_core::format::Record, shudu_core::ParseError>;

/// The records of a file, of standard input or of one puzzle typed inline, read piece by piece:
/// memory holds one batch at a time whatever the input's size, and records that arrive slowly
/// (`(echo P; sleep 3; echo P) | shudu solve`) are answered as they come, not at the end.
///
/// Each piece is whole lines; [`shudu_core::format::Reader`] reads it, and a last record that
/// may go on in the next piece (a grid whose rows are not all there yet) is carried over and
/// read again with what follows. Puzzle and line numbers count from the start of the input. A
/// UTF-8 byte order mark at the start (Notepad's files) is skipped.
pub struct RecordStream {
    src: io::BufReader<Box<dyn Read + Send>>,
    name: String,
    /// Lines read but not yet taken as records (from the start of a line).
    buf: Vec<u8>,
    /// Lines and records before `buf`.
    lines_before: usize,
    records_before: usize,
    started: bool,
    eof: bool,
}

/// Bytes a piece holds before it is read (more when one line is longer).
const PIECE: usize = 1 << 20;

impl RecordStream {
    /// Reads `path`, or standard input for `-` or no path.
    pub fn open(path: Option<&Path>) -> Result<RecordStream> {
        let (src, name): (Box<dyn Read + Send>, String) = match path {
            None => (stdin_file()?, "standard input".into()),
            Some(p) if p == Path::new("-") => (stdin_file()?, "standard input".into()),
            Some(p) => {
                let f =
                    fs::File::open(p).with_context(|| format!("cannot read {}", p.display()))?;
                (Box::new(f), p.display().to_string())
            }
        };
        Ok(RecordStream::from_reader(src, name))
    }

    /// [`RecordStream::open`], except that an argument that names no file and looks like a
    /// puzzle is read as that one puzzle (see [`read_input_or_puzzle`]).
    pub fn open_or_puzzle(path: Option<&Path>) -> Result<RecordStream> {
        if let Some(arg) = path.and_then(Path::to_str) {
            if !Path::new(arg).exists() && looks_like_puzzle(arg) {
                let text = format!("{arg}\n").into_bytes();
                return Ok(RecordStream::from_reader(
                    Box::new(io::Cursor::new(text)),
                    "the puzzle argument".into(),
                ));
            }
        }
        RecordStream::open(path)
    }

    fn from_reader(src: Box<dyn Read + Send>, name: String) -> RecordStream {
        RecordStream {
            src: io::BufReader::with_capacity(1 << 16, src),
            name,
            buf: Vec::new(),
            lines_before: 0,
            records_before: 0,
            started: false,
            eof: false,
        }
    }

    /// What is read, for messages: a path, "standard input" or "the puzzle argument".
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The records read so far.
    pub fn records(&self) -> usize {
        self.records_before
    }

    /// Up to `max` more records, in order; empty at the end of the input. Returns as soon as
    /// some record is whole and no more input is waiting, so a slow writer's records are not
    /// held back.
    ///
    /// # Errors
    ///
    /// A read error of the input (a bad record is an `Err` item, not an error).
    pub fn next_batch(&mut self, max: usize) -> Result<Vec<Item>> {
        use std::io::BufRead as _;
        loop {
            let mut new_lines = 0;
            while !self.eof && self.buf.len() < PIECE {
                // Whatever is waiting is read; past that, wait only while no new line has come.
                if new_lines > 0 && self.src.buffer().is_empty() {
                    break;
                }
                let n = self
                    .src
                    .read_until(b'\n', &mut self.buf)
                    .with_context(|| format!("cannot read {}", self.name))?;
                if n == 0 {
                    self.eof = true;
                } else {
                    new_lines += 1;
                }
            }
            // A byte order mark is on the first line, which is read whole.
            if !self.started && (!self.buf.is_empty() || self.eof) {
                self.started = true;
                if self.buf.starts_with(b"\xEF\xBB\xBF") {
                    self.buf.drain(..3);
                }
            }
            let mut reader = shudu_core::format::Reader::new(&self.buf);
            let mut batch = Vec::new();
            let (keep_at, keep_lines) = loop {
                let before = (reader.offset(), reader.lines_read());
                if batch.len() == max {
                    break before;
                }
                let Some(item) = reader.next() else {
                    break (self.buf.len(), reader.lines_read());
                };
                // A record that reaches the end of what was read may go on in what comes next,
                // unless it is a whole one-line record (line, marks, JSON).
                let whole = self.eof
                    || reader.offset() < self.buf.len()
                    || matches!(&item, Ok(r) if r.line == reader.lines_read());
                if !whole {
                    break before;
                }
                batch.push(match item {
                    Ok(mut r) => {
                        r.number += self.records_before;
                        r.line += self.lines_before;
                        Ok(r)
                    }
                    Err(mut e) => {
                        e.puzzle += self.records_before;
                        e.line += self.lines_before;
                        Err(e)
                    }
                });
            };
            self.buf.drain(..keep_at);
            self.lines_before += keep_lines;
            self.records_before += batch.len();
            if !batch.is_empty() || self.eof {
                return Ok(batch);
            }
        }
    }

    /// Reads the input on a thread of its own and calls `each` with every batch of up to `max`
    /// records, in order, on this thread: reading overlaps the work, and memory holds at most
    /// three batches. Returns the number of records read.
    ///
    /// # Errors
    ///
    /// The first error of `each` (then the reading thread is left to end with the process: it
    /// may be waiting for input that never comes), or a read error.
    pub fn for_each_batch(
        self,
        max: usize,
        mut each: impl FnMut(Vec<Item>) -> Result<()>,
    ) -> Result<usize> {
        let mut stream = self;
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<Item>>(1);
        let reader = std::thread::Builder::new()
            .name("shudu-reader".into())
            .spawn(move || -> Result<usize> {
                loop {
                    let batch = stream.next_batch(max)?;
                    if batch.is_empty() || tx.send(batch).is_err() {
                        return Ok(stream.records());
                    }
                }
            })
            .context("cannot start the reading thread")?;
        for batch in rx {
            each(batch)?;
        }
        reader.join().expect("the reading thread does not panic")
    }
}

/// Standard input as a file of its own (no second buffer in front of ours), to be read on
/// another thread.
fn stdin_file() -> Result<Box<dyn Read + Send>> {
    use std::os::fd::AsFd as _;
    let fd = io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .context("cannot read standard input")?;
    Ok(Box::new(fs::File::from(fd)))
}

fn read_stdin() -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    io::stdin()
        .lock()
        .read_to_end(&mut buf)
        .context("cannot read standard input")?;
    Ok(buf)
}

/// Where output goes: standard output, or a file written through a temporary file in the same
/// folder and renamed into place when complete, so a failure never leaves a half-written file.
///
/// The rules for `-o FILE` (issue 12; tested in `crates/cli/tests/cli.rs`):
/// - A symbolic link is followed: the link's final target is replaced, the link stays a link,
///   and the temporary file goes in the target's folder.
/// - Devices, pipes and the paths under `/dev/` and `/proc/` (`/dev/stdout`, `/dev/null`) are
///   written in place, never replaced.
/// - A new file gets the usual mode (0666 less the umask); a replaced file keeps its mode, and
///   its owner and group where the user may give them (else standard error says so).
/// - An existing file is replaced only if the user could write it (as `>` would refuse).
/// - A hard link is split: the name given gets the new file, the file's other names keep the
///   old contents (standard error says so).
/// - The temporary file is removed if the run fails, is dropped without [`Output::finish`], or
///   is stopped by SIGINT, SIGTERM or SIGHUP (see [`cleanup_on_signals`]); the old file is then
///   left as it was.
pub enum Output {
    /// Standard output, buffered.
    Stdout(io::BufWriter<io::Stdout>),
    /// A device or pipe, written in place.
    Special {
        /// The open file.
        file: io::BufWriter<fs::File>,
        /// Its path, for messages.
        target: PathBuf,
    },
    /// A temporary file to be renamed to `target` by [`Output::finish`].
    File {
        /// The temporary file.
        tmp: io::BufWriter<tempfile::NamedTempFile>,
        /// The final path (the link's target when the user named a symbolic link).
        target: PathBuf,
        /// Keeps the temporary file's path in the list a signal cleans up.
        _guard: TempGuard,
    },
}

/// Gives the new copy of `target` the old file's owner and group, where the kernel lets the
/// user, and says on standard error what could not be kept; also warns when `target` has other
/// hard links, which the rename leaves with the old contents.
fn keep_owner(tmp: &fs::File, old: &fs::Metadata, target: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        let (uid, gid) = (old.uid(), old.gid());
        let new = tmp.metadata().ok();
        let same = |m: &fs::Metadata| (m.uid(), m.gid()) == (uid, gid);
        if !new.as_ref().is_some_and(same)
            && std::os::unix::fs::fchown(tmp, Some(uid), Some(gid)).is_err()
        {
            let _ = std::os::unix::fs::fchown(tmp, None, Some(gid));
            if let Ok(m) = tmp.metadata() {
                if m.uid() != uid {
                    let _ = writeln!(
                        io::stderr(),
                        "shudu: note: {} belonged to user {uid}; the new file is yours (only \
                         root can give a file away)",
                        target.display()
                    );
                } else if m.gid() != gid {
                    let _ = writeln!(
                        io::stderr(),
                        "shudu: note: {} was in group {gid}; the new file is in group {}",
                        target.display(),
                        m.gid()
                    );
                }
            }
        }
        if old.nlink() > 1 {
            let _ = writeln!(
                io::stderr(),
                "shudu: note: {} had {}; they keep the old contents (the new file replaces this \
                 name only)",
                target.display(),
                shudu_core::error::counted((old.nlink() - 1) as usize, "other hard link")
            );
        }
    }
}

/// Follows `path` through symbolic links (up to 40, as the kernel does) to the file a write
/// should replace; a dangling link gives the path the link points at.
fn resolve_links(path: &Path) -> Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&p)
                    .with_context(|| format!("cannot read the link {}", p.display()))?;
                p = match p.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            _ => return Ok(p),
        }
    }
    anyhow::bail!(
        "cannot write {}: too many levels of symbolic links",
        path.display()
    )
}

impl Output {
    /// Standard output for `None` or `-`; for a device, a pipe or a path under `/dev/` or
    /// `/proc/`, that file itself, since renaming over it would replace the device; else a new
    /// temporary file beside the file `path` names (through symbolic links).
    pub fn create(path: Option<&Path>) -> Result<Output> {
        let p = match path {
            None => return Output::stdout(),
            Some(p) if p == Path::new("-") => return Output::stdout(),
            Some(p) => p,
        };
        let special = p.starts_with("/dev") || p.starts_with("/proc");
        if special || fs::metadata(p).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            let file = fs::OpenOptions::new()
                .write(true)
                .open(p)
                .with_context(|| format!("cannot open {}", p.display()))?;
            return Ok(Output::Special {
                file: io::BufWriter::with_capacity(1 << 20, file),
                target: p.to_path_buf(),
            });
        }
        let target = resolve_links(p)?;
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let old = fs::metadata(&target).ok();
        if old.as_ref().is_some_and(|m| m.is_dir()) {
            anyhow::bail!("cannot write {}: it is a folder", p.display());
        }
        if old.is_some() {
            // Replace only a file the user could write in place, as `>` would: opened for
            // writing (not truncated) to ask the kernel, which knows about root, ACLs and
            // read-only mounts. A folder anyone may write must not let a user swap in a file of
            // their own for root's.
            fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .with_context(|| format!("cannot write {}", target.display()))?;
        }
        let mut builder = tempfile::Builder::new();
        builder.prefix(".shudu-");
        // A new file: 0666, less the umask (the kernel applies it to the mode given at
        // creation), like any file a shell redirection makes.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        // The handler is in place, and the list locked, before the file exists: a signal at any
        // moment finds the file in the list (the handler waits for the lock).
        cleanup_on_signals();
        let mut files = TEMP_FILES.lock().unwrap_or_else(|e| e.into_inner());
        let tmp = builder
            .tempfile_in(dir)
            .with_context(|| format!("cannot create a file in {}", dir.display()))?;
        files.push(tmp.path().to_path_buf());
        drop(files);
        let guard = TempGuard(tmp.path().to_path_buf());
        // A replaced file keeps its owner and group where the user may give them (root may;
        // anyone may give a group they belong to), then its mode (after, since a change of
        // owner clears the set-id bits).
        if let Some(m) = old {
            keep_owner(tmp.as_file(), &m, &target);
            tmp.as_file()
                .set_permissions(m.permissions())
                .with_context(|| format!("cannot set the mode of {}", target.display()))?;
        }
        Ok(Output::File {
            tmp: io::BufWriter::with_capacity(1 << 20, tmp),
            target,
            _guard: guard,
        })
    }

    fn stdout() -> Result<Output> {
        check_stdout()?;
        Ok(Output::Stdout(io::BufWriter::with_capacity(
            1 << 16,
            io::stdout(),
        )))
    }

    /// Passes what was written on to standard output or a device now, so that a reader sees
    /// each batch as it is done (`(echo P; sleep 3; echo P) | shudu solve`); a file's temporary
    /// copy waits for [`Output::finish`].
    pub fn flush_batch(&mut self) -> Result<()> {
        match self {
            Output::Stdout(w) => w.flush().context("cannot write to standard output"),
            Output::Special { file, target } => file
                .flush()
                .with_context(|| format!("cannot write {}", target.display())),
            Output::File { .. } => Ok(()),
        }
    }

    /// Writes all of `bytes`.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<()> {
        match self {
            Output::Stdout(w) => w
                .write_all(bytes)
                .context("cannot write to standard output"),
            Output::File { tmp, target, .. } => tmp
                .write_all(bytes)
                .with_context(|| format!("cannot write {}", target.display())),
            Output::Special { file, target } => file
                .write_all(bytes)
                .with_context(|| format!("cannot write {}", target.display())),
        }
    }

    /// Flushes, and for a file renames the finished temporary file into place.
    pub fn finish(self) -> Result<()> {
        match self {
            Output::Stdout(mut w) => w.flush().context("cannot write to standard output"),
            Output::Special { mut file, target } => file
                .flush()
                .with_context(|| format!("cannot write {}", target.display())),
            Output::File { tmp, target, .. } => {
                let tmp = tmp
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .with_context(|| format!("cannot write {}", target.display()))?;
                tmp.persist(&target)
                    .map_err(|e| e.error)
                    .with_context(|| format!("cannot replace {}", target.display()))?;
                Ok(())
            }
        }
    }

    /// Gives up a run that produced nothing useful: a file is left as it was (the temporary
    /// file is removed); standard output and devices get what was already written. Says so on
    /// standard error when a file was kept.
    pub fn abandon(self) -> Result<()> {
        match self {
            Output::File { target, .. } => {
                eprintln!(
                    "shudu: nothing written: {} left as it was",
                    target.display()
                );
                Ok(())
            }
            other => other.finish(),
        }
    }
}

/// The temporary files being written, removed by the signal handler of [`cleanup_on_signals`].
static TEMP_FILES: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Keeps a temporary file in the list the signal handler removes, while it lives.
pub struct TempGuard(PathBuf);

impl Drop for TempGuard {
    fn drop(&mut self) {
        if let Ok(mut files) = TEMP_FILES.lock() {
            files.retain(|p| p != &self.0);
        }
    }
}

pub use shudu::signals::ignored_at_start;

/// On SIGINT, SIGTERM or SIGHUP, removes the temporary files being written and exits with 128
/// plus the signal's number (130, 143, 129), as a shell reports a process the signal killed.
/// Installed once, by the first output file; commands that write only to standard output keep
/// the default handling. A signal ignored at start stays ignored ([`ignored_at_start`]).
pub fn cleanup_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let wanted: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
            .into_iter()
            .filter(|&s| !ignored_at_start(s))
            .collect();
        let Ok(mut signals) = signal_hook::iterator::Signals::new(wanted) else {
            return; // Without a handler the default action applies; nothing better to do.
        };
        let _ = std::thread::Builder::new()
            .name("shudu-signals".into())
            .spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    // Hold the lock to the end: no new file is registered meanwhile.
                    let files = TEMP_FILES.lock().unwrap_or_else(|e| e.into_inner());
                    for f in files.iter() {
                        let _ = fs::remove_file(f);
                    }
                    std::process::exit(128 + sig);
                }
            });
    });
}

/// Whether standard output was closed when shudu started (`shudu grids -n 5 >&-`).
static STDOUT_CLOSED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// Notes whether standard output was closed when shudu started. Rust's start-up code puts
/// `/dev/null` (opened for reading and writing) in place of a closed standard output, so that
/// output would vanish without a word; a shell's `> /dev/null` opens it for writing only, which
/// tells the two apart (Linux's `/proc/self/fdinfo`; elsewhere nothing is noted).
pub fn note_closed_stdout() {
    let null = fs::read_link("/proc/self/fd/1").is_ok_and(|p| p == Path::new("/dev/null"));
    let read_write = || {
        fs::read_to_string("/proc/self/fdinfo/1").is_ok_and(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("flags:"))
                .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
                .is_some_and(|f| f & 0o3 == 0o2)
        })
    };
    let _ = STDOUT_CLOSED.set(null && read_write());
}

/// An error if standard output was closed at start.
fn check_stdout() -> Result<()> {
    if STDOUT_CLOSED.get().copied().unwrap_or(false) {
        anyhow::bail!("cannot write to standard output: it is closed (give -o FILE, or a pipe)");
    }
    Ok(())
}

/// Writes `text` to standard output and flushes; the error (a full disk, a closed standard
/// output) is the caller's to report, where `print!` would panic.
pub fn stdout_text(text: &str) -> Result<()> {
    check_stdout()?;
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write to standard output")
}

/// Writes `text` to standard error as it is, in one call, ignoring failure: a closed or full
/// standard error must not stop the work or lose the output (`eprint!` panics then).
pub fn say(text: &str) {
    if !text.is_empty() {
        let _ = io::stderr().lock().write_all(text.as_bytes());
    }
}

/// Whether the error chain holds a broken pipe (the reader went away: not a failure).
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// A progress bar on standard error for `total` items, hidden unless standard error is a
/// terminal and there are at least `min_total` items (fast jobs are not worth a bar).
pub fn progress(total: u64, what: &str, min_total: u64) -> ProgressBar {
    use std::io::IsTerminal;
    if !io::stderr().is_terminal() || total < min_total {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} {wide_bar} {pos}/{len} ({per_sec}, {eta})")
            .expect("the template is valid"),
    );
    bar.set_message(what.to_string());
    bar
}

/// Sets rayon's global thread count, if asked, to no more than `work` (the items there are to
/// share: never more workers than work).
pub fn set_threads(threads: Option<usize>, work: usize) -> Result<()> {
    if let Some(t) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t.min(work.max(1)))
            .build_global()
            .context("cannot start the thread pool")?;
    }
    Ok(())
}

/// The `--format` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FormatArg {
    /// 81 characters a line, `.` for empty.
    #[default]
    Line,
    /// 9 lines of space-separated digits, `0` for empty, a blank line between puzzles.
    Grid,
    /// 9 lines of 9 digits, a blank line between puzzles.
    Compact,
    /// A boxed grid for terminals.
    Pretty,
    /// JSON Lines, one object a puzzle.
    Json,
    /// Pencil marks (Sukaku): 729 characters a line, 9 a cell; a given's field holds its digit,
    /// an empty cell's the digits no peer holds.
    Marks,
}

impl From<FormatArg> for shudu_core::format::Format {
    fn from(f: FormatArg) -> Self {
        use shudu_core::format::Format;
        match f {
            FormatArg::Line => Format::Line,
            FormatArg::Grid => Format::Grid,
            FormatArg::Compact => Format::Compact,
            FormatArg::Pretty => Format::Pretty,
            FormatArg::Json => Format::Json,
            FormatArg::Marks => Format::Marks,
        }
    }
}

/// Formats `grids` in parallel into buffers, in order; `first` is the number of records written
/// before them (for the separators of block formats).
pub fn format_grids(
    grids: &[shudu_core::Grid],
    format: shudu_core::format::Format,
    first: usize,
    spare: &std::sync::Mutex<Vec<Vec<u8>>>,
) -> Vec<Vec<u8>> {
    use rayon::prelude::*;
    const CHUNK: usize = 8192;
    grids
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(k, chunk)| {
            // A buffer the writer has emptied, if there is one: fresh megabyte buffers cost page
            // faults, and freeing them TLB shootdowns (perf on `shudu -c 1000000`).
            let mut buf = spare
                .lock()
                .map_or_else(|_| Vec::new(), |mut v| v.pop().unwrap_or_default());
            buf.clear();
            buf.reserve(chunk.len() * 172);
            for (i, g) in chunk.iter().enumerate() {
                let index = first + k * CHUNK + i;
                if format == shudu_core::format::Format::Grid {
                    // The hot path of `shudu -c`.
                    if index > 0 {
                        buf.push(b'\n');
                    }
                    write_grid(&mut buf, g.as_bytes());
                } else {
                    format.write(&mut buf, index, &g.to_puzzle());
                }
            }
            buf
        })
        .collect()
}

/// [`shudu_core::format::write_grid`], to the byte, eight cells at a time: the hot path of
/// `shudu -c` and `shudu -s` (callgrind: about a third of the instructions of the byte loop).
/// Cells are `0..=9`; each row is `d d d d d d d d d\n`.
#[inline]
pub fn write_grid(out: &mut Vec<u8>, cells: &[u8; 81]) {
    // Cell bytes b0 b1 b2 b3 spread to b0 0 b1 0 b2 0 b3 0, then '0' added to each cell byte
    // and ' ' put in each gap (little-endian bytes of one word).
    #[inline]
    fn spread(four: u32) -> u64 {
        let x = four as u64;
        let x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
        let x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
        x + 0x2030_2030_2030_2030
    }
    let mut buf = [0u8; 162];
    for (row, line) in cells.chunks_exact(9).zip(buf.chunks_exact_mut(18)) {
        let lo = u32::from_le_bytes([row[0], row[1], row[2], row[3]]);
        let hi = u32::from_le_bytes([row[4], row[5], row[6], row[7]]);
        line[..8].copy_from_slice(&spread(lo).to_le_bytes());
        line[8..16].copy_from_slice(&spread(hi).to_le_bytes());
        line[16] = b'0' + row[8];
        line[17] = b'\n';
    }
    out.extend_from_slice(&buf);
}

#[cfg(test)]
mod tests {
    #[test]
    fn write_grid_matches_the_core_writer() {
        let mut cells = [0u8; 81];
        for k in 0..2000u32 {
            // Every digit 0..=9 in every cell, over the rounds.
            for (i, c) in cells.iter_mut().enumerate() {
                *c = ((k as usize * 7 + i * 13 + (k as usize / 10) * i) % 10) as u8;
            }
            let (mut fast, mut core) = (Vec::new(), Vec::new());
            super::write_grid(&mut fast, &cells);
            shudu_core::format::write_grid(&mut core, &cells);
            assert_eq!(fast, core, "round {k}");
        }
    }
}
