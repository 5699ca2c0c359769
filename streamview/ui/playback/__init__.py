"""The playback bar, its keys, and the timeline it plays."""
