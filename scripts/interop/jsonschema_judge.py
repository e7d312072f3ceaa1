#!/usr/bin/env python3
"""Judges documents against schemas Vetted exported, with PyPI's jsonschema
(Draft 2020-12): an independent validator, used as a test oracle only.

    jsonschema_judge.py SCHEMAS DOCUMENTS VERDICTS

SCHEMAS   a JSON object: schema name -> JSON Schema document
DOCUMENTS JSON lines: {"schema": name, "document": "<JSON text>"}
VERDICTS  written as JSON lines, one per document:
          {"valid": bool, "errors": ["<path>: <keyword>", ...]}

Every schema is first checked against the 2020-12 meta-schema; a schema that
fails exits with status 2, naming it.
"""
import json
import sys

import re

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import SchemaError, ValidationError


def ecma_pattern(validator, pattern, instance, schema):
    """The `pattern` keyword with ECMA-262's `$`, as JSON Schema specifies.

    jsonschema searches with Python's `re`, whose `$` also matches before a final
    newline; ECMA-262's `$` (no `m` flag) matches only at the end. A final
    unescaped `$` is read as `\\Z`, Python's end of input; nothing else changes.
    """
    if not validator.is_type(instance, "string"):
        return
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + "\\Z"
    if not re.search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


Judge = validators.extend(Draft202012Validator, {"pattern": ecma_pattern})


def main(schemas_path, documents_path, verdicts_path):
    with open(schemas_path, encoding="utf-8") as handle:
        schemas = json.load(handle)
    judges = {}
    for name, schema in schemas.items():
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as error:
            print(f"schema {name} is not valid 2020-12: {error.message}", file=sys.stderr)
            return 2
        judges[name] = Judge(schema)
    with open(documents_path, encoding="utf-8") as documents, open(verdicts_path, "w", encoding="utf-8") as verdicts:
        for line in documents:
            entry = json.loads(line)
            instance = json.loads(entry["document"])
            errors = sorted(
                "$" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in error.absolute_path)
                + ": " + str(error.validator)
                for error in judges[entry["schema"]].iter_errors(instance)
            )
            verdicts.write(json.dumps({"valid": not errors, "errors": errors}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
