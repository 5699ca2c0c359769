"""A child process's own peak memory, which ``wait4`` cannot tell.

Linux keeps the parent's peak resident set in a child's ``ru_maxrss`` across ``exec``:
a child started by ``subprocess`` (``vfork``) reports at least its parent's peak, a
forked one at least the parent's size at the fork (``signal->maxrss`` takes the old
address space's high-water mark). A bench that wrote 600 MB of data, or a pytest worker
that holds 150 MB, then sees every child at that floor. The child's own ``VmHWM`` (the
high-water mark of the address space ``exec`` gave it) is the measure:
:func:`peak_command` runs a module so that it writes ``VmHWM`` last on its stderr, and
:func:`split_peak` takes it back off.

Usage::

    child = subprocess.Popen(peak_command(sys.executable, "streamview", "--json", path),
                             stderr=subprocess.PIPE)
    said, peak_kb = split_peak(child.communicate()[1])
"""

from __future__ import annotations

MARK = "\nstreamview-peak-kb "
"""What precedes the peak (kB) on the child's stderr, after all it wrote itself."""

_CODE = (
    "import atexit, runpy, sys\n"
    "def peak():\n"
    "    with open('/proc/self/status') as status:\n"
    "        for line in status:\n"
    "            if line.startswith('VmHWM:'):\n"
    "                sys.stderr.flush()\n"
    f"                sys.stderr.write({MARK!r} + line.split()[1] + '\\n')\n"
    "atexit.register(peak)\n"
    "target = sys.argv.pop(1)\n"
    "sys.argv[0] = target\n"
    "if target.endswith('.py'):\n"
    "    sys.path[0] = __import__('os').path.dirname(target)\n"
    "    runpy.run_path(target, run_name='__main__')\n"
    "else:\n"
    "    runpy.run_module(target, run_name='__main__', alter_sys=True)\n"
)


def peak_command(python: str, target: str, *args: str) -> list[str]:
    """``python -m target args`` (``python target args`` for a ``.py`` file), which
    writes its own peak RSS last on stderr."""
    return [python, "-c", _CODE, target, *args]


def measured(command: list[str]) -> list[str] | None:
    """``command`` (``[python, "-m", module, ...]`` or ``[python, "script.py", ...]``) as
    :func:`peak_command` runs it; ``None`` for any other command."""
    if len(command) >= 3 and command[1] == "-m":
        return peak_command(command[0], command[2], *command[3:])
    if len(command) >= 2 and command[1].endswith(".py"):
        return peak_command(command[0], command[1], *command[2:])
    return None


def split_peak(stderr: bytes) -> tuple[str, int | None]:
    """``(what the child wrote on stderr, its peak RSS in kB)``; ``None`` when it
    wrote no peak (it died before exiting normally: a signal, ``os._exit``)."""
    text = stderr.decode(errors="replace")
    said, mark, rest = text.rpartition(MARK)
    peak = rest.strip()
    if not mark or not peak.isdigit():
        return text, None
    return said, int(peak)
