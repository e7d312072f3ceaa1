#!/usr/bin/env python3
"""A client that misbehaves on purpose, for the adapters' tests: it sends a
request's body slowly, or only part of it, and prints the server's answer.

    raw_http.py PORT PATH CONTENT_TYPE trickle COUNT DELAY   # COUNT one-byte chunks, DELAY s apart
    raw_http.py PORT PATH CONTENT_TYPE over BYTES            # BYTES in one chunk, and the body never ends
    raw_http.py PORT PATH CONTENT_TYPE declared LENGTH [N]   # Content-Length LENGTH, and only N bytes sent (0)
    raw_http.py PORT PATH CONTENT_TYPE trailer BYTES         # a small chunked body, then a trailer of BYTES
    raw_http.py PORT PATH CONTENT_TYPE held LENGTH           # Content-Length LENGTH, one byte; after the
                                                             # answer, a byte every 0.2 s for up to 10 s
    raw_http.py PORT PATH CONTENT_TYPE records COUNT DELAY LINE  # LINE and a newline COUNT times, one
                                                             # chunk each, DELAY s apart, then the end

It stops sending as soon as the server answers, and prints the status code on
the first line, then the response body. Exit 2 when no answer came: "no answer",
then whether the server closed the connection or 20 s passed.
In `held` mode a last line says whether the server then closed the connection
("connection closed") or still took bytes after 10 s ("connection open").
"""
import select
import socket
import sys
import time


def main(argv):
    port, path, content_type, mode = int(argv[0]), argv[1], argv[2], argv[3]
    sock = socket.create_connection(("127.0.0.1", port), timeout=20)
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: {content_type}\r\n"
    if mode in ("declared", "held"):
        sent = 1 if mode == "held" else int(argv[5]) if len(argv) > 5 else 0
        sock.sendall((head + f"Content-Length: {argv[4]}\r\n\r\n").encode() + b" " * sent)
    else:
        sock.sendall((head + "Transfer-Encoding: chunked\r\n\r\n").encode())
        if mode == "trailer":
            sock.sendall(b"2\r\n{}\r\n0\r\n")
            try:
                sock.sendall(b"X-Pad: " + b"a" * int(argv[4]) + b"\r\n\r\n")
            except OSError:
                pass  # the server answered and closed first
        elif mode == "records":
            count, delay, line = int(argv[4]), float(argv[5]), argv[6].encode() + b"\n"
            for index in range(count):
                if index and select.select([sock], [], [], delay)[0]:
                    break  # the server answered
                try:
                    sock.sendall(f"{len(line):x}\r\n".encode() + line + b"\r\n")
                except OSError:
                    break
            else:
                sock.sendall(b"0\r\n\r\n")
        elif mode == "over":
            size = int(argv[4])
            sock.sendall(f"{size:x}\r\n".encode() + b" " * size + b"\r\n")
        else:
            count, delay = int(argv[4]), float(argv[5])
            for _ in range(count):
                if select.select([sock], [], [], delay)[0]:
                    break  # the server answered
                try:
                    sock.sendall(b"1\r\n \r\n")
                except OSError:
                    break
    answer, closed = read_answer(sock)
    if not answer:
        print("no answer")
        print("the server closed the connection" if closed else "none in 20 s")
        sys.exit(2)
    head, _, body = answer.partition(b"\r\n\r\n")
    print(head.split(b" ")[1].decode())
    sys.stdout.write(body.decode("utf-8", "replace"))
    if mode == "held":
        print("\nconnection " + ("closed" if closes(sock) else "open"))


def read_answer(sock):
    """The server's answer, and whether it closed the connection."""
    answer = b""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if not select.select([sock], [], [], 0.5)[0]:
            if answer and b"\r\n\r\n" in answer and complete(answer):
                break
            continue
        try:
            chunk = sock.recv(65536)
        except OSError:
            return answer, True
        if not chunk:
            return answer, True
        answer += chunk
        if complete(answer):
            break
    return answer, False


def closes(sock):
    """Keeps trickling the body after the answer: True once the server ends the connection."""
    for _ in range(50):
        if select.select([sock], [], [], 0.2)[0]:
            try:
                if not sock.recv(65536):
                    return True
            except OSError:
                return True
        try:
            sock.sendall(b" ")
        except OSError:
            return True
    return False


def complete(answer):
    head, sep, body = answer.partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value.strip())
    return False


if __name__ == "__main__":
    main(sys.argv[1:])
