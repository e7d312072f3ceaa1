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

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError


def main(schemas_path, documents_path, verdicts_path):
    with open(schemas_path, encoding="utf-8") as handle:
        schemas = json.load(handle)
    validators = {}
    for name, schema in schemas.items():
        try:
            Draft202012Validator.check_schema(schema)
        except SchemaError as error:
            print(f"schema {name} is not valid 2020-12: {error.message}", file=sys.stderr)
            return 2
        validators[name] = Draft202012Validator(schema)
    with open(documents_path, encoding="utf-8") as documents, open(verdicts_path, "w", encoding="utf-8") as verdicts:
        for line in documents:
            entry = json.loads(line)
            instance = json.loads(entry["document"])
            errors = sorted(
                "$" + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in error.absolute_path)
                + ": " + str(error.validator)
                for error in validators[entry["schema"]].iter_errors(instance)
            )
            verdicts.write(json.dumps({"valid": not errors, "errors": errors}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
