#!/usr/bin/env python3
"""Judges instances against JSON-Schema-Test-Suite schemas with PyPI's jsonschema, or with
jsonschema-rs: independent validators, used as test oracles only (VettedJSONSchemaTests).

    jsonschema_suite_judge.py CASES REMOTES VERDICTS [jsonschema | jsonschema-rs]

CASES     JSON lines: {"draft": "draft2020-12" | "draft7", "schema": ..., "instance": ...}
REMOTES   the suite's remotes/ folder, served as http://localhost:1234/ (nothing is fetched)
VERDICTS  written as JSON lines, one per case: {"valid": bool} or {"error": "<why it could not judge>"}
"""
import json
import os
import sys


def remote_documents(remotes):
    """Every remote as (URI, contents, is draft 7)."""
    documents = []
    for folder, _, files in os.walk(remotes):
        for name in files:
            if not name.endswith(".json"):
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, remotes).replace(os.sep, "/")
            with open(path, encoding="utf-8") as handle:
                documents.append(("http://localhost:1234/" + relative, json.load(handle), relative.startswith("draft7/")))
    return documents


def rust_judge(remotes):
    """jsonschema-rs, its retriever answering from the remotes only."""
    import jsonschema_rs

    known = {uri: contents for uri, contents, _ in remote_documents(remotes)}

    def retrieve(uri):
        if uri in known:
            return known[uri]
        raise ValueError("not a remote of the suite: " + uri)

    def judge(draft, schema, instance):
        # `format` as an annotation, as the suite's required tests and Vetted's default read it
        # (jsonschema-rs asserts it by default for draft 7).
        options = {"retriever": retrieve, "validate_formats": False}
        if isinstance(schema, dict) and "$schema" in schema:
            validator = jsonschema_rs.validator_for(schema, **options)
        elif draft == "draft7":
            validator = jsonschema_rs.Draft7Validator(schema, **options)
        else:
            validator = jsonschema_rs.Draft202012Validator(schema, **options)
        return validator.is_valid(instance)

    return judge


def python_judge(remotes):
    from jsonschema import Draft7Validator, Draft202012Validator, validators

    registry = registry_of(remotes)

    def judge(draft, schema, instance):
        default = Draft7Validator if draft == "draft7" else Draft202012Validator
        cls = validators.validator_for(schema, default=default)
        return cls(schema, registry=registry).is_valid(instance)

    return judge


def registry_of(remotes):
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7, DRAFT202012

    resources = [
        (uri, Resource.from_contents(contents, default_specification=DRAFT7 if draft7 else DRAFT202012))
        for uri, contents, draft7 in remote_documents(remotes)
    ]
    return Registry().with_resources(resources)


def main(cases_path, remotes, verdicts_path, judge_name="jsonschema"):
    judge = rust_judge(remotes) if judge_name == "jsonschema-rs" else python_judge(remotes)
    with open(cases_path, encoding="utf-8") as cases, open(verdicts_path, "w", encoding="utf-8") as verdicts:
        for line in cases:
            case = json.loads(line)
            try:
                valid = judge(case["draft"], case["schema"], case["instance"])
                verdicts.write(json.dumps({"valid": valid}) + "\n")
            except Exception as error:  # a schema it cannot read: reported, not judged
                verdicts.write(json.dumps({"error": type(error).__name__}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
