"""Trece on the web: the check screen and the followed two-player table."""
