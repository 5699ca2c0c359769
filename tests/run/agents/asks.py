"""An agent that stops to ask a question: it says whether its stdin is a terminal and
what it read there (end of input reads as ``''``), then ends its run, exit 0."""

import os
import sys

from _stream import INIT, RESULT, SESSION, USER, emit  # type: ignore[import-not-found]

sys.stdout.write(INIT + "\n")
sys.stdout.flush()
answer = sys.stdin.readline()  # "Proceed? [y/N]": a person could not answer it here
said = f"stdin tty={os.isatty(0)} read={answer!r}"
text = (
    '{"type":"assistant","message":{"role":"assistant","content":'
    f'[{{"type":"text","text":"{said}"}}]}},"session_id":"{SESSION}"}}'
)
emit([USER, text, RESULT])
