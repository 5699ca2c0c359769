"""Shared pieces every pane draws text with: wrapping, styles, capping, rows, selection."""
