"""The peers of `compare jsonschema`: Python's `jsonschema` or `jsonschema-rs`
(`--engine python|rs`) validating a JSON file against a schema. It runs as a
worker, as msgspec_listings.py does: it compiles the schema and reads the file
once, says "ready N" (N = 1 when the file is valid, 0 when not), then for each
line "run" on standard input parses the bytes (json.loads) and validates them
once, and writes the seconds that took (perf_counter). Prints "unavailable: ..."
when the engine is not installed."""
import json
import sys
import time


def main():
    path, schema_path, engine = sys.argv[1], sys.argv[2], sys.argv[3]
    try:
        if engine == "rs":
            import jsonschema_rs

            def compile_schema(schema):
                return jsonschema_rs.validator_for(schema)
        else:
            import jsonschema

            def compile_schema(schema):
                return jsonschema.validators.validator_for(schema)(schema)
    except ImportError as error:
        print(f"unavailable: {error}", flush=True)
        return
    with open(schema_path, "rb") as handle:
        validator = compile_schema(json.loads(handle.read()))
    with open(path, "rb") as handle:
        data = handle.read()
    print(f"ready {1 if validator.is_valid(json.loads(data)) else 0}", flush=True)
    for line in sys.stdin:
        if line.strip() != "run":
            break
        start = time.perf_counter()
        valid = validator.is_valid(json.loads(data))
        elapsed = time.perf_counter() - start
        del valid
        print(f"{elapsed:.9f}", flush=True)


if __name__ == "__main__":
    main()
