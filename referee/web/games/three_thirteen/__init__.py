"""Three Thirteen on the web: the score page and the followed eleven-round sheet."""
