"""A run that names itself: every line carries TAG (argv[1]), so a recording shows
whose run it holds. argv[2] lines of answer (default 20), then the result, exit 0."""

import sys

from _stream import INIT, RESULT, SESSION, USER, emit  # type: ignore[import-not-found]

tag = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 20
answer = (
    '{"type":"assistant","message":{"role":"assistant","content":'
    '[{"type":"text","text":"%s part %d %s "}]},"session_id":"%s"}'
)
padding = "x" * (int(sys.argv[3]) if len(sys.argv) > 3 else 0)
lines = [INIT, USER.replace("say hi", tag)]
lines += [answer % (tag, number, padding, SESSION) for number in range(count)]
lines.append(RESULT.replace("Hi \\u2014 done.", f"done {tag}"))
emit(lines, pause=0.001)
