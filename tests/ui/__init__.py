"""Tests of the Textual viewer."""
