class TableError(ValueError):
    """A request the table refuses. ``code`` is the protocol's error code (SPEC §7)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
