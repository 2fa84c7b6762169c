#!/usr/bin/env python3
"""Validates every /api/v1 response the tests recorded against the OpenAPI document.

usage: validate_responses.py OPENAPI_JSON RECORDS_JSONL

Each line of RECORDS_JSONL is one response a test received (written by
tests/http/openapi_record_util.cc): {"test", "method", "target", "status",
"content_type", "headers", "body"}. A response fails when
  - its path matches no route of the document and it is not the router's 404,
  - its method is not documented for the path and it is not a 405 whose Allow
    header lists exactly the documented methods,
  - its status is not documented for the operation,
  - its content type is not documented, or a documented header is missing,
  - its body does not validate against the documented schema (JSON Schema
    draft 2020-12, the dialect of OpenAPI 3.1, by python3-jsonschema).
Prints every failure and a summary of which (operation, status) pairs the
tests exercised; exits 1 on any failure or when nothing was recorded.
"""
import json
import sys
from urllib.parse import unquote

import jsonschema

METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]


def pointer(*parts):
    return "#" + "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


class Spec:
    def __init__(self, doc):
        self.doc = doc
        self.routes = []  # (template segments, template, path item)
        for template, item in doc["paths"].items():
            self.routes.append((template.strip("/").split("/"), template, item))

    def matching(self, path):
        raw = path.strip("/").split("/") if path != "/" else [""]
        out = []
        for segments, template, item in self.routes:
            if len(segments) != len(raw):
                continue
            literals = 0
            for want, got in zip(segments, raw):
                if want.startswith("{") and want.endswith("}"):
                    if got == "":
                        break
                elif unquote(got) != want:
                    break
                else:
                    literals += 1
            else:
                out.append((literals, template, item))
        return out

    def resolve(self, node, where):
        """Follows a $ref to components; returns (node, its JSON pointer)."""
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            where = ref
            node = self.doc
            for part in ref.lstrip("#/").split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
        return node, where

    def validate(self, body, schema_pointer):
        # The document itself is the schema resource, so "#/components/..."
        # references inside resolve; its other keys are not JSON Schema
        # keywords and are ignored.
        root = dict(self.doc)
        root["$ref"] = schema_pointer
        validator = jsonschema.Draft202012Validator(root)
        return [f"{'/'.join(str(p) for p in e.absolute_path) or '(body)'}: {e.message}"
                for e in validator.iter_errors(body)]


def error_body_problems(spec, record):
    try:
        body = json.loads(record["body"])
    except ValueError as e:
        return [f"body is not JSON: {e}"]
    return spec.validate(body, pointer("components", "schemas", "Error"))


def check(spec, record, seen):
    method = record["method"].lower()
    target = record["target"]
    path = target.split("?", 1)[0]
    status = str(record["status"])
    head = method == "head"
    lookup = "get" if head else method
    matches = spec.matching(path)
    if not matches:
        if status == "404":
            return [] if head else error_body_problems(spec, record)
        return [f"{path} is not a route of the OpenAPI document (answered {status})"]
    with_method = [m for m in matches if lookup in m[2]]
    if not with_method:
        documented = set()
        for _, _, item in matches:
            documented |= {m.upper() for m in METHODS if m in item}
        if "GET" in documented:
            documented.add("HEAD")
        if status != "405":
            return [f"{record['method']} is not documented for {matches[0][1]} (answered {status})"]
        allow = {m.strip() for m in record["headers"].get("allow", "").split(",") if m.strip()}
        problems = []
        if allow != documented:
            problems.append(f"405 Allow header {sorted(allow)} differs from the documented "
                            f"methods {sorted(documented)}")
        return problems + error_body_problems(spec, record)
    _, template, item = max(with_method, key=lambda m: m[0])
    operation = item[lookup]
    key = (f"{lookup.upper()} {template}", status)
    seen[key] = seen.get(key, 0) + 1
    responses = operation.get("responses", {})
    if status not in responses:
        return [f"status {status} of {lookup.upper()} {template} is not in the OpenAPI document "
                f"(documented: {', '.join(sorted(responses))})"]
    response, where = spec.resolve(responses[status], pointer("paths", template, lookup,
                                                             "responses", status))
    problems = []
    for name in response.get("headers", {}):
        if name.lower() not in record["headers"]:
            problems.append(f"documented header {name} is missing")
    content = response.get("content", {})
    if head or not content:
        return problems
    ctype = record.get("content_type", "").split(";", 1)[0].strip()
    if ctype not in content:
        return problems + [f"content type {ctype!r} is not documented ({', '.join(content)})"]
    if "schema" not in content[ctype]:
        return problems
    # Downloads (a CSV export, a database backup) are checked by their type alone.
    if ctype != "application/json" and not ctype.endswith("+json"):
        return problems
    try:
        body = json.loads(record["body"])
    except ValueError as e:
        return problems + [f"body is not JSON: {e}"]
    schema_at = where + "/" + "/".join(["content", ctype.replace("/", "~1"), "schema"])
    return problems + spec.validate(body, schema_at)


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        spec = Spec(json.load(f))
    records = []
    try:
        with open(argv[2], encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    try:
                        records.append(json.loads(line))
                    except ValueError as e:
                        print(f"{argv[2]}:{n}: unreadable record: {e}")
                        return 1
    except FileNotFoundError:
        pass
    if not records:
        print(f"no responses were recorded in {argv[2]}: did the http tests run "
              "(ctest sets DP_OPENAPI_RECORD for them)?")
        return 1
    seen, failures = {}, 0
    for r in records:
        for problem in check(spec, r, seen):
            failures += 1
            print(f"FAIL {r.get('test', '?')}: {r['method']} {r['target']} -> {r['status']}: "
                  f"{problem}")
    documented = []
    for template, item in spec.doc["paths"].items():
        for m in METHODS:
            if m in item:
                for status in item[m].get("responses", {}):
                    documented.append((f"{m.upper()} {template}", status))
    exercised = [d for d in documented if d in seen]
    operations = {d[0] for d in documented}
    covered_ops = {d[0] for d in exercised}
    print(f"{len(records)} responses checked against the OpenAPI document, {failures} failures; "
          f"{len(covered_ops)}/{len(operations)} operations and "
          f"{len(exercised)}/{len(documented)} documented statuses exercised")
    for op in sorted(operations - covered_ops):
        print(f"  not exercised: {op}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
