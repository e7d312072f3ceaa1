"""The decode peer for `compare decode-lines`: msgspec's Decoder.decode_lines on
the whole JSON Lines buffer, each line a typed Listing Struct with the talk's
constraints (msgspec_listings.py). A worker, as that script's `serve` runs it."""
import sys

from msgspec_listings import Listing, msgspec, serve


class Lines:
    """decode() as serve() calls it: every line of the buffer."""

    def __init__(self):
        self.decoder = msgspec.json.Decoder(Listing)

    def decode(self, data):
        return self.decoder.decode_lines(data)


if __name__ == "__main__":
    serve(Lines(), sys.argv[1])
