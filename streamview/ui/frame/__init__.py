"""The app's frame: header, status bar, footer, keys, palette, help and export."""
