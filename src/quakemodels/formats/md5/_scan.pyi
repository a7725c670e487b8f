"""Types of the compiled ``_scan`` module (``_scan.c``); see :class:`..fast.CompiledTokens`."""

def scan(data: bytes) -> tuple[bytes, bytes, bytes, bytes, bytes] | None:
    """Every token of an MD5 text: int64 starts and ends, uint8 kinds, float64 values, and
    int64 (token, start, end) triples of the ``// meshes:`` comments, as raw bytes; None
    where the Python tokenizers must read the file."""
