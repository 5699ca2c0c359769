"""A run that prints nothing on stdout and fails (not logged in, no workspace trust)."""

import sys

sys.stderr.write("\u26a0 Workspace Trust Required\n")
sys.exit(3)
