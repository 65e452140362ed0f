"""Tiến lên on the web: the check screen, the followed table and the evening's score sheet."""
