"""Marks drawn in more than one pane, kept apart so a pane need not import another."""

PROMPT_MARK = "\u276f "
"""Marks the prompt: in the session header and before the transcript's first block."""
