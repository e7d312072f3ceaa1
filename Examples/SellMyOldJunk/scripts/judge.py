"""Judges a schemathesis JUnit report against junk-server's document.

A failure passes only when it is ST202 (a schema-valid request refused) answered 422 with a
problem whose every error points at a property the document annotates with an `x-vetted-*`
rule (one JSON Schema cannot state); each such rule is printed. Anything else fails the run.

    judge.py DOCUMENT_URL JUNIT_XML SCHEMATHESIS_STATUS
"""
import json
import re
import sys
import urllib.request
import xml.etree.ElementTree as ElementTree

document = json.load(urllib.request.urlopen(sys.argv[1]))
report = ElementTree.parse(sys.argv[2]).getroot()
status = int(sys.argv[3])


def resolve(schema):
    while isinstance(schema, dict) and "$ref" in schema:
        node = document
        for token in schema["$ref"].lstrip("#/").split("/"):
            node = node[token.replace("~1", "/").replace("~0", "~")]
        schema = node
    return schema


def annotations(operation, pointer):
    """The x-vetted-* keys of the request body's property at `pointer`, or None."""
    method, path = operation.split(" ", 1)
    body = document["paths"][path][method.lower()]["requestBody"]["content"]["application/json"]["schema"]
    schema = resolve(body)
    for token in [t for t in pointer.split("/") if t]:
        schema = resolve(schema)
        if token.isdigit() and "items" in schema:
            schema = schema["items"]
        else:
            schema = schema.get("properties", {}).get(token.replace("~1", "/").replace("~0", "~"))
        if schema is None:
            return None
    schema = resolve(schema)
    keys = sorted(key for key in schema if key.startswith("x-vetted-"))
    return keys or None


failures, annotated = [], []
for case in report.iter("testcase"):
    # schemathesis's own errors (a request it could not make or read) fail the run too.
    for error in case.iter("error"):
        failures.append(f"{case.get('name')}: error {error.get('message')}\n{error.text or ''}")
    for failure in case.iter("failure"):
        code, text = failure.get("message"), failure.text or ""
        body = re.search(r"\[422\][^`]*`(\{.*?\})`", text, re.S)
        if code != "ST202" or body is None:
            failures.append(f"{case.get('name')}: {code}\n{text}")
            continue
        problem = json.loads(body.group(1))
        for error in problem.get("errors", []):
            keys = annotations(case.get("name"), error.get("pointer", ""))
            if keys is None:
                failures.append(f"{case.get('name')}: ST202 refused for {error.get('code')} at {error.get('pointer')}, a rule the schema states")
            else:
                annotated.append(f"{case.get('name')} {error.get('pointer')}: {error.get('code')} ({', '.join(keys)})")

tests = report.get("tests")
print(f"judge: {tests} operations' test groups; {len(annotated)} refusal(s) by annotate-only rules, {len(failures)} other failure(s)")
for line in sorted(set(annotated)):
    print("  annotate-only:", line)
for line in failures:
    print("  FAILURE:", line)
if failures or (status != 0 and not annotated):
    sys.exit(1)
