"""End-to-end tests: the real command in a real terminal (tmux)."""
