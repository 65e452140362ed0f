# The request class htmx-flask installs: ``request.htmx`` is an ``HtmxHeaders``.
from flask import Request
from werkzeug.datastructures import Headers

class HtmxHeaders:
    def __init__(self, headers: Headers) -> None: ...
    def __bool__(self) -> bool: ...
    @property
    def boosted(self) -> bool: ...

class HtmxAwareRequest(Request):
    htmx: HtmxHeaders
