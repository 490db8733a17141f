#!/usr/bin/env python3
"""Add filter-impair to QEMU's QAPI schema (qapi/qom.json).

-object only creates the object types the schema lists, so the netfilter
of hw/filter-impair.c joins the ObjectType enum and the ObjectOptions
union next to filter-dump, with its properties (hw/filter-impair.json).
Usage: qapi-add-filter-impair.py QOM_JSON FRAGMENT_JSON (idempotent; a
changed fragment replaces the one added before).
"""
import os
import sys


def remove_old(schema):
    """Take out what an earlier version of the fragment added."""
    start = schema.find("##\n# @FilterImpairProperties:")
    if start < 0:
        return schema
    end = schema.index("##\n# @FilterMirrorProperties:", start)
    schema = schema[:start] + schema[end:]
    return "".join(line for line in schema.splitlines(keepends=True)
                   if "'filter-impair'" not in line)


def main():
    path, frag_path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        schema = f.read()
    with open(frag_path) as f:
        frag = f.read()
    if frag in schema:
        return
    schema = remove_old(schema)
    edits = [
        ("    'filter-dump',\n", "    'filter-impair',\n"),
        ("      'filter-dump':                'FilterDumpProperties',\n",
         "      'filter-impair':              'FilterImpairProperties',\n"),
    ]
    for anchor, line in edits:
        if schema.count(anchor) != 1:
            sys.exit(f"{path}: no single {anchor.strip()!r} to add filter-impair after")
        schema = schema.replace(anchor, anchor + line)
    anchor = "##\n# @FilterMirrorProperties:"
    if schema.count(anchor) != 1:
        sys.exit(f"{path}: no single FilterMirrorProperties to put FilterImpairProperties before")
    schema = schema.replace(anchor, frag + anchor)
    with open(path + ".tmp", "w") as f:
        f.write(schema)
    os.rename(path + ".tmp", path)


if __name__ == "__main__":
    main()
