"""The decode peer for `compare decode`: msgspec decoding list[Listing] as a
typed Struct with the talk's constraints. It runs as a worker: it reads the
file once, then for each line "run" on standard input decodes it once and
writes the seconds the decode took (perf_counter), so that the Swift side can
alternate it with its own lines. Prints "unavailable: ..." when msgspec is not
installed."""
import sys

try:
    import datetime
    from typing import Annotated, Literal

    import msgspec
    from msgspec import Meta, Struct
except ImportError as error:
    print(f"unavailable: {error}", flush=True)
    sys.exit(0)

Tag = Literal["music", "electric", "acoustic", "vintage", "books", "tools", "garden", "kids"]


class Listing(Struct):
    id: Annotated[int, Meta(ge=1, le=2**31 - 1)]
    name: Annotated[str, Meta(min_length=1, max_length=200)]
    description: Annotated[str, Meta(min_length=1, max_length=5000)]
    price: Annotated[str, Meta(pattern=r"^[0-9]+(\.[0-9]{1,2})?$", max_length=32)]
    sold: bool
    url: Annotated[str, Meta(pattern=r"^https://example\.com(/|$)", max_length=50)]
    tags: Annotated[list[Tag], Meta(min_length=1, max_length=10)]
    created: datetime.datetime
    last_updated: datetime.datetime

    def __post_init__(self):
        if self.last_updated < self.created:
            raise ValueError("last_updated is before created")


def serve(decoder, path):
    """The worker loop both peers share: decode the file once, say "ready N",
    then time one decode per "run" line."""
    import time

    data = open(path, "rb").read()
    count = len(decoder.decode(data))
    print(f"ready {count}", flush=True)
    for line in sys.stdin:
        if line.strip() != "run":
            break
        start = time.perf_counter()
        value = decoder.decode(data)
        elapsed = time.perf_counter() - start
        del value
        print(f"{elapsed:.9f}", flush=True)


if __name__ == "__main__":
    serve(msgspec.json.Decoder(list[Listing]), sys.argv[1])
