"""The transcript pane: the agent's text, laid out block by block."""
