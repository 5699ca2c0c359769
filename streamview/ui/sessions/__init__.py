"""The list of every run on this machine (``streamview sessions`` in a terminal), and
the viewer opened from it, whose Escape comes back to the list."""
