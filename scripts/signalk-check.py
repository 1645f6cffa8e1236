#!/usr/bin/env python3
"""Checks Signal K deltas the way a Signal K server reads them.

Usage: signalk-check.py SCHEMAS DELTAS [--udp]

DELTAS holds what the device sent: newline-framed deltas as a TCP connection carries them,
or (--udp) datagrams separated by NUL bytes. Each delta is parsed whole (a server drops a
datagram that is not one JSON object), validated against the specification's delta.json,
then applied to a full model of the vessel, which is validated against vessel.json and the
group schemas. Every path of the specification must carry the unit the schema names, within
a physical range; nothing may be null; no update may be empty. Prints one JSON summary line;
exits 1 on the first kind of failure, listing them all.
"""
import json
import math
import os
import sys

import jsonschema

RANGES = {  # the unit the schema must name, and the range a value in it must be in
    "navigation.headingMagnetic": ("rad", 0, 2 * math.pi),
    "navigation.headingTrue": ("rad", 0, 2 * math.pi),
    "navigation.magneticVariation": ("rad", -math.pi, math.pi),
    "navigation.rateOfTurn": ("rad/s", -20, 20),
    "navigation.speedOverGround": ("m/s", 0, 150),
    "navigation.courseOverGroundTrue": ("rad", 0, 2 * math.pi),
    "environment.outside.pressure": ("Pa", 30000, 110000),
    "environment.outside.temperature": ("K", 200, 350),
    "environment.outside.relativeHumidity": ("ratio", 0, 1),
}


def store_for(root):
    store = {}
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".json"):
                path = os.path.join(folder, name)
                with open(path) as f:
                    schema = json.load(f)
                store["file://" + path] = schema
                if "id" in schema:
                    store[schema["id"].split("#")[0]] = schema
    return store


def validator(root, name, store):
    path = os.path.join(root, name)
    schema = store["file://" + path]
    resolver = jsonschema.RefResolver(base_uri=schema.get("id", "file://" + path), referrer=schema, store=store)
    return jsonschema.Draft4Validator(schema, resolver=resolver), resolver


def schema_node(resolver, schema, parts):
    """The schema of a dotted path below the vessel schema, following $ref, or None."""
    node = schema
    for part in parts:
        while "$ref" in node:
            _, node = resolver.resolve(node["$ref"])
        props = node.get("properties", {})
        if part not in props:
            return None
        node = props[part]
    return node


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    root, deltas_path = sys.argv[1], sys.argv[2]
    udp = "--udp" in sys.argv
    store = store_for(root)
    delta_validator, _ = validator(root, "delta.json", store)
    vessel_validator, vessel_resolver = validator(root, "vessel.json", store)
    raw = open(deltas_path, "rb").read()
    frames = [f for f in (raw.split(b"\0") if udp else raw.split(b"\n")) if f.strip()]
    problems, paths, sources, values, metas = [], {}, set(), 0, 0
    # The receiving server's own vessel: it supplies the identity a delta without a context
    # is about.
    model = {"uuid": "urn:mrn:signalk:uuid:6b0e776f-811a-4b35-980e-b93405371bc5"}
    for frame in frames:
        try:
            delta = json.loads(frame)
        except ValueError as error:
            problems.append("not JSON (%s): %r" % (error, frame[:120]))
            continue
        errors = list(delta_validator.iter_errors(delta))
        if errors:
            problems.append("delta.json: %s in %r" % (errors[0].message, frame[:200]))
            continue
        for update in delta["updates"]:
            if "meta" in update:
                metas += 1
                continue
            if not update.get("values"):
                problems.append("an empty update: %r" % frame[:200])
            sources.add(update.get("$source"))
            for item in update.get("values", []):
                path, value = item["path"], item["value"]
                values += 1
                if value is None:
                    problems.append("null at " + path)
                    continue
                paths[path] = paths.get(path, 0) + 1
                node = model
                parts = path.split(".")
                for part in parts[:-1]:
                    node = node.setdefault(part, {})
                node[parts[-1]] = {"value": value, "$source": update.get("$source"), "timestamp": update.get("timestamp")}
                if path in RANGES:
                    unit, low, high = RANGES[path]
                    schema = schema_node(vessel_resolver, vessel_validator.schema, parts)
                    named = schema.get("units") if schema else None
                    if named != unit:
                        problems.append("%s: the schema names %r, the check expects %r" % (path, named, unit))
                    if not isinstance(value, (int, float)) or not low <= value <= high:
                        problems.append("%s = %r is outside %s..%s %s" % (path, value, low, high, unit))
                elif not path.startswith("lodestone.") and schema_node(vessel_resolver, vessel_validator.schema, parts) is None:
                    problems.append("%s is not a path of the specification (nor under lodestone.)" % path)
    errors = list(vessel_validator.iter_errors(model))
    for error in errors[:5]:
        problems.append("vessel.json at %s: %s" % ("/".join(str(p) for p in error.absolute_path), error.message))
    print(json.dumps({"deltas": len(frames), "values": values, "metas": metas, "paths": paths,
                      "sources": sorted(s for s in sources if s), "problems": problems[:20]}))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
