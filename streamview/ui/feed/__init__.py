"""The background reader that feeds the viewer, and garbage collection between frames."""
