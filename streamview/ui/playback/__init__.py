"""The playback bar, its controls, and the timeline it plays."""
