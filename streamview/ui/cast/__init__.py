"""``--export-cast``: the viewer playing a run, recorded as an asciicast v2 file.

:mod:`~streamview.ui.cast.frames` turns the viewer's screen into terminal output (only
the lines that changed); :mod:`~streamview.ui.cast.export` plays the run headless on a
virtual clock and writes a frame at each replay time.
"""
