# django-js-lib-htmx ships htmx's release files; the app only reads where they lie (the module's __file__).
