"""The verify peer for `compare httpsig`: PyPI's http-message-signatures
verifying the same signed HTTP responses as Vetted, with the same policy
(@status, content-type and content-digest covered, the body checked against
Content-Digest, at most 300 s old). A worker, like msgspec_listings.py: it
loads the messages, prints "ready N", then for each line "run" verifies all of
them once and prints the seconds that took (perf_counter). Prints
"unavailable: ..." when the package is not installed.

    httpsig_verify.py MESSAGES PUBLIC.pem KEYID
MESSAGES: the raw responses, each preceded by a line with its length in bytes."""
import datetime
import sys

import os

# The message classes and the parser are the interop peer's (scripts/interop/httpsig_peer.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "interop"))
try:
    from cryptography.hazmat.primitives.serialization import load_pem_public_key
    from http_message_signatures import HTTPMessageVerifier, MappingKeyResolver, algorithms

    from httpsig_peer import parse
except ImportError as error:
    print(f"unavailable: {error}", flush=True)
    sys.exit(0)


def main():
    import time

    raw = open(sys.argv[1], "rb").read()
    messages = []
    while raw:
        length, _, rest = raw.partition(b"\n")
        count = int(length)
        messages.append(rest[:count])
        raw = rest[count:]
    key = load_pem_public_key(open(sys.argv[2], "rb").read())
    verifier = HTTPMessageVerifier(
        signature_algorithm=algorithms.ED25519, key_resolver=MappingKeyResolver(public_keys={sys.argv[3]: key}, private_keys={}))
    required = ("@status", "content-type", "content-digest")
    max_age = datetime.timedelta(seconds=300)

    def run():
        for data in messages:
            message, body = parse(data)
            verifier.verify(message, max_age=max_age, require_components=required, body=body)

    run()  # fails loudly here if any message does not verify
    print(f"ready {len(messages)}", flush=True)
    for line in sys.stdin:
        if line.strip() != "run":
            break
        start = time.perf_counter()
        run()
        print(time.perf_counter() - start, flush=True)


main()
