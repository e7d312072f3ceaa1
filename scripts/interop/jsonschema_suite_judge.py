#!/usr/bin/env python3
"""Judges instances against JSON-Schema-Test-Suite schemas with PyPI's jsonschema:
an independent validator, used as a test oracle only (VettedJSONSchemaTests).

    jsonschema_suite_judge.py CASES REMOTES VERDICTS

CASES     JSON lines: {"draft": "draft2020-12" | "draft7", "schema": ..., "instance": ...}
REMOTES   the suite's remotes/ folder, served as http://localhost:1234/ (nothing is fetched)
VERDICTS  written as JSON lines, one per case: {"valid": bool} or {"error": "<why it could not judge>"}
"""
import json
import os
import sys

from jsonschema import Draft7Validator, Draft202012Validator, validators
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7, DRAFT202012


def registry_of(remotes):
    resources = []
    for folder, _, files in os.walk(remotes):
        for name in files:
            if not name.endswith(".json"):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, remotes).replace(os.sep, "/")
            with open(path, encoding="utf-8") as handle:
                contents = json.load(handle)
            specification = DRAFT7 if relative.startswith("draft7/") else DRAFT202012
            resources.append(("http://localhost:1234/" + relative, Resource.from_contents(contents, default_specification=specification)))
    return Registry().with_resources(resources)


def main(cases_path, remotes, verdicts_path):
    registry = registry_of(remotes)
    with open(cases_path, encoding="utf-8") as cases, open(verdicts_path, "w", encoding="utf-8") as verdicts:
        for line in cases:
            case = json.loads(line)
            default = Draft7Validator if case["draft"] == "draft7" else Draft202012Validator
            try:
                cls = validators.validator_for(case["schema"], default=default)
                valid = cls(case["schema"], registry=registry).is_valid(case["instance"])
                verdicts.write(json.dumps({"valid": valid}) + "\n")
            except Exception as error:  # a schema it cannot read: reported, not judged
                verdicts.write(json.dumps({"error": type(error).__name__}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
