"""What scripts/bench and the measuring scripts share: timing a command by its CPU time, the
machine's description, and rewriting one section of BENCHMARKS.md between its markers.

Each section of BENCHMARKS.md sits between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`;
only the script that measures it writes there, so a reader can rerun any one section.
"""
import datetime
import os
import re
import resource
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def children_cpu():
    """CPU seconds (user + system) of every child waited for so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_cpu(cmd, *, cwd=None, stdin=None, check=True, pin=None, ok=(0,)):
    """Runs `cmd` (a list) to the end and returns (CPU seconds, completed process). With `pin`,
    the command runs under `taskset -c PIN` (one core, as the peers are measured). With `check`,
    an exit status outside `ok` ends the script."""
    if pin is not None:
        cmd = ["taskset", "-c", str(pin)] + list(cmd)
    before = children_cpu()
    out = subprocess.run(cmd, cwd=cwd, stdin=stdin, capture_output=True, text=True)
    spent = children_cpu() - before
    if check and out.returncode not in ok:
        sys.exit(f"{' '.join(map(str, cmd))} failed ({out.returncode}): {out.stderr.strip()[-600:]}")
    return spent, out


def median_cpu(cmd, runs, warmup=1, **kw):
    """Median and range of the CPU seconds of `runs` runs after `warmup` unmeasured ones."""
    for _ in range(warmup):
        run_cpu(cmd, **kw)
    times = [run_cpu(cmd, **kw)[0] for _ in range(runs)]
    return statistics.median(times), min(times), max(times)


def hyperfine(cmd, runs, warmup=1, cwd=None):
    """Median wall seconds and the mean user + system seconds of a shell command (hyperfine -N)."""
    import json
    import tempfile
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    subprocess.run(["hyperfine", "-N", "-w", str(warmup), "-r", str(runs), "--export-json", path, cmd],
                   cwd=cwd, check=True, capture_output=True)
    r = json.load(open(path))["results"][0]
    os.unlink(path)
    return r["median"], r["user"] + r["system"]


def machine():
    """One line: CPU model, cores, memory, kernel."""
    model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                  if l.startswith("model name")), "unknown CPU")
    mem = next((int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal")), 0)
    u = os.uname()
    return f"{model}, {os.cpu_count()} cores, {mem / 2**20:.0f} GiB, {u.sysname} {u.release}"


def commit():
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    return out.stdout.strip() + ("+" if dirty else "")


def stamp(how):
    """The line that opens every section: when, at which commit, on what, made by what."""
    today = datetime.date.today().isoformat()
    return f"Measured {today} at `{commit()}` by `{how}`; {machine()}."


def write_section(name, lines, path=None):
    """Replaces the text between the section's markers in BENCHMARKS.md (atomically)."""
    path = path or os.path.join(ROOT, "BENCHMARKS.md")
    begin, end = f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"
    block = "\n".join([begin, ""] + list(lines) + ["", end])
    text = open(path).read()
    if begin not in text or end not in text:
        sys.exit(f"{path} has no markers for section '{name}' ({begin} ... {end})")
    text = re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, text, flags=re.S)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    print(block)


def fmt(x):
    """A rate or count with thousands separators and no more digits than it deserves."""
    if x >= 100:
        return f"{x:,.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"
