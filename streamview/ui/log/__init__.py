"""The event log screen."""
