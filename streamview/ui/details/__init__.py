"""A call's details screen and its per-kind views."""
