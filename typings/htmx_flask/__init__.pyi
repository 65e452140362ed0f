# The part of htmx-flask 0.1 the app uses: the extension, and ``request.htmx`` it installs.
from flask import Flask

class HtmxDetails:
    boosted: bool
    def __bool__(self) -> bool: ...

class Htmx:
    def __init__(self, app: Flask | None = ...) -> None: ...
    def init_app(self, app: Flask) -> None: ...
