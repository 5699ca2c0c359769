"""The tool-call table: its rows, columns, keys, filter and search."""
