# The part of WhiteNoise 6 the app uses (the WSGI wrapper).
from collections.abc import Callable, Iterable
from typing import Any

class WhiteNoise:
    def __init__(
        self,
        application: Callable[..., Iterable[bytes]],
        root: str | None = ...,
        prefix: str | None = ...,
        *,
        max_age: int | None = ...,
        allow_all_origins: bool = ...,
        immutable_file_test: Callable[[str, str], bool] | None = ...,
        add_headers_function: Callable[[Any, str, str], None] | None = ...,
        mimetypes: dict[str, str] | None = ...,
        **kwargs: Any,
    ) -> None: ...
    def add_files(self, root: str, prefix: str | None = ...) -> None: ...
    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]: ...
