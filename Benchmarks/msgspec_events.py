"""The decode peer for `compare decode-events`: msgspec decoding a list of
listing events, a tagged union of five Structs (tag_field="type"), with the
same constraints as the @Vetted payloads. It runs as a worker, with
msgspec_listings.py's loop: "ready N", then one decode per "run" line,
printing the seconds it took. Prints "unavailable: ..." when msgspec is not installed."""
import sys

try:
    import datetime
    from typing import Annotated, Literal, Union

    import msgspec
    from msgspec import Meta, Struct
except ImportError as error:
    print(f"unavailable: {error}", flush=True)
    sys.exit(0)

Id = Annotated[int, Meta(ge=1, le=2**31 - 1)]
Price = Annotated[str, Meta(pattern=r"^[0-9]+(\.[0-9]{1,2})?$", max_length=32)]
Tag = Literal["music", "electric", "acoustic", "vintage", "books", "tools", "garden", "kids"]


class ListingCreated(Struct, tag_field="type", tag="listing.created"):
    id: Id
    name: Annotated[str, Meta(min_length=1, max_length=200)]
    price: Price
    tags: Annotated[list[Tag], Meta(min_length=1, max_length=10)]
    at: datetime.datetime


class PriceChanged(Struct, tag_field="type", tag="listing.price_changed"):
    id: Id
    old_price: Price
    new_price: Price
    at: datetime.datetime


class ListingSold(Struct, tag_field="type", tag="listing.sold"):
    id: Id
    price: Price
    at: datetime.datetime


class ListingWithdrawn(Struct, tag_field="type", tag="listing.withdrawn"):
    id: Id
    reason: Literal["sold elsewhere", "changed my mind", "damaged", "duplicate"]
    at: datetime.datetime


class MessageSent(Struct, tag_field="type", tag="message.sent"):
    id: Id
    from_: Annotated[int, Meta(ge=1, le=2**31 - 1)] = msgspec.field(name="from")
    text: Annotated[str, Meta(min_length=1, max_length=2000)]
    at: datetime.datetime


Event = Union[ListingCreated, PriceChanged, ListingSold, ListingWithdrawn, MessageSent]


if __name__ == "__main__":
    from msgspec_listings import serve

    serve(msgspec.json.Decoder(list[Event]), sys.argv[1])
