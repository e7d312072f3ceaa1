#!/usr/bin/env python3
"""An independent RFC 9421 peer for Vetted's interoperability tests.

It uses PyPI's `http-message-signatures` (and `cryptography` for PEM keys),
never Vetted, so a message one side signs is checked by code the other side
did not write.

    httpsig_peer.py sign KEY.pem KEYID request|response       raw HTTP message on stdout
    httpsig_peer.py verify PUB.pem KEYID FILE [COMPONENT...]  exit 0 and "verified ..." or exit 1
    httpsig_peer.py load-keys KEY.pem PUB.pem                 exit 0 when cryptography reads both
    httpsig_peer.py gen-keys ed25519|p256 KEY.pem PUB.pem     keys written by cryptography (PKCS#8, SPKI)

A test peer, not part of the library.
"""
import datetime
import sys

from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.hazmat.primitives.serialization import load_pem_private_key, load_pem_public_key
from http_message_signatures import HTTPMessageSigner, HTTPMessageVerifier, InvalidSignature, MappingKeyResolver, algorithms

BODY = {"request": b'{"name":"Junk","price":5}', "response": b'{"items":[]}'}


class Headers:
    """Field lines in order; lookups ignore case."""

    def __init__(self, lines=()):
        self.lines = list(lines)

    def items(self):
        return list(self.lines)

    def __iter__(self):
        return iter(dict.fromkeys(name for name, _ in self.lines))

    def __contains__(self, name):
        return any(n.lower() == name.lower() for n, _ in self.lines)

    def __getitem__(self, name):
        values = [v for n, v in self.lines if n.lower() == name.lower()]
        if not values:
            raise KeyError(name)
        return ", ".join(values)

    def __setitem__(self, name, value):
        del self[name]
        self.lines.append((name, value))

    def __delitem__(self, name):
        self.lines = [(n, v) for n, v in self.lines if n.lower() != name.lower()]


class Request:
    def __init__(self, method, url, headers):
        self.method, self.url, self.headers = method, url, headers


class Response:
    def __init__(self, status_code, headers):
        self.status_code, self.headers, self.request = status_code, headers, None


def algorithm_for(key):
    if isinstance(key, (ed25519.Ed25519PrivateKey, ed25519.Ed25519PublicKey)):
        return algorithms.ED25519
    if isinstance(key, (ec.EllipticCurvePrivateKey, ec.EllipticCurvePublicKey)):
        return algorithms.ECDSA_P256_SHA256
    raise SystemExit("unsupported key type")


def read_pem(path, private):
    with open(path, "rb") as f:
        data = f.read()
    return load_pem_private_key(data, password=None) if private else load_pem_public_key(data)


def serialize(message, body):
    if isinstance(message, Request):
        scheme_host, _, rest = message.url.partition("://")[2].partition("/")
        head = f"{message.method} /{rest} HTTP/1.1\r\nHost: {scheme_host}\r\n"
    else:
        head = f"HTTP/1.1 {message.status_code} OK\r\n"
    head += "".join(f"{n}: {v}\r\n" for n, v in message.headers.items())
    return head.encode("latin-1") + b"\r\n" + body


def parse(data):
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    start = lines[0].split(" ")
    fields = [tuple(part.strip() for part in line.split(":", 1)) for line in lines[1:]]
    headers = Headers(fields)
    if start[0].startswith("HTTP/"):
        return Response(int(start[1]), headers), body
    return Request(start[0], "https://" + headers["host"] + start[1], headers), body


def sign(key_path, key_id, kind):
    key = read_pem(key_path, private=True)
    body = BODY[kind]
    if kind == "request":
        message = Request("POST", "https://junk.example/listings?draft=1", Headers([("Content-Type", "application/json")]))
        covered = ("@method", "@authority", "@path", "@query", "content-type")
    else:
        message = Response(200, Headers([("Content-Type", "application/json")]))
        covered = ("@status", "content-type")
    message.headers["Content-Length"] = str(len(body))
    signer = HTTPMessageSigner(
        signature_algorithm=algorithm_for(key), key_resolver=MappingKeyResolver(public_keys={}, private_keys={key_id: key}))
    # body= makes the package compute Content-Digest (sha-256) and cover it.
    signer.sign(message, key_id=key_id, label="sig1", covered_component_ids=covered, body=body,
                created=datetime.datetime.now(datetime.timezone.utc))
    sys.stdout.buffer.write(serialize(message, body))


def verify(key_path, key_id, path, components):
    key = read_pem(key_path, private=False)
    with open(path, "rb") as f:
        message, body = parse(f.read())
    verifier = HTTPMessageVerifier(
        signature_algorithm=algorithm_for(key), key_resolver=MappingKeyResolver(public_keys={key_id: key}, private_keys={}))
    try:
        results = verifier.verify(message, max_age=datetime.timedelta(minutes=5), require_components=components, body=body)
    except InvalidSignature as error:
        print(f"not verified: {error}")
        sys.exit(1)
    for result in results:
        print(f"verified {result.label} by {result.parameters.get('keyid')}: {' '.join(str(c) for c in result.covered_components)}")


def main(argv):
    if argv[0] == "sign":
        sign(argv[1], argv[2], argv[3])
    elif argv[0] == "verify":
        verify(argv[1], argv[2], argv[3], argv[4:])
    elif argv[0] == "gen-keys":
        from cryptography.hazmat.primitives import serialization
        key = ed25519.Ed25519PrivateKey.generate() if argv[1] == "ed25519" else ec.generate_private_key(ec.SECP256R1())
        with open(argv[2], "wb") as f:
            f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
        with open(argv[3], "wb") as f:
            f.write(key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    elif argv[0] == "load-keys":
        algorithm_for(read_pem(argv[1], private=True))
        algorithm_for(read_pem(argv[2], private=False))
        print("keys read")
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
