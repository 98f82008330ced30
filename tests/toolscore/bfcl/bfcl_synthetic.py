"""Random BFCL-shaped records and outputs, independent of BFCL's data.

Where ``bfcl_mutations`` varies outputs of BFCL's own records, this makes up the records too:
one to three functions with random parameter types (string, integer, float, boolean, array and
tuple with random item types, dict, any), random required lists, answers with random
alternatives (of the schema's type or not: variable slots, ``""``, nested lists, dict answers
with optional keys, NaN and infinities, tuples), dotted names, and outputs that pick an allowed
value or something else, in any order, sometimes a call short. It reaches rule combinations
BFCL's data never has, so agreement here says the rules are BFCL's, not fitted to its data.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

from bfcl_mutations import Case, Record

TYPES = ("string", "integer", "float", "boolean", "array", "tuple", "dict", "any")
ITEM_TYPES = ("string", "integer", "float", "boolean", "dict", "array")
CATEGORIES = ("simple_python", "multiple", "parallel", "parallel_multiple", "live_simple")


class _Maker:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def scalar(self, depth: int = 0) -> Any:
        r = self.rng
        makers = [
            lambda: r.choice(["a", "A b", "x-y", "it's", "", " ", "New York", "n.y", "t\tb", "Ü"]),
            lambda: r.choice([0, 1, 2, -1, 10]),
            lambda: r.choice([0.0, 1.0, 1.5, -0.5, float("nan"), float("inf")]),
            lambda: r.choice([True, False]),
            lambda: None,
            lambda: [self.scalar(depth + 1) for _ in range(r.randrange(3))] if depth < 2 else 1,
            lambda: (
                tuple(self.scalar(depth + 1) for _ in range(r.randrange(3))) if depth < 2 else 2
            ),
            lambda: (
                {r.choice("kKj"): self.scalar(depth + 1) for _ in range(r.randrange(3))}
                if depth < 2
                else "z"
            ),
            lambda: r.choice(["x", 1, 1.0, True]),
        ]
        return r.choice(makers)()

    def typed(self, schema_type: str) -> Any:
        options = {
            "string": ["a", "A b", "x-y", "it's", "New York"],
            "any": ["a", "b c"],
            "integer": [0, 1, 2, 5],
            "float": [1.0, 2.5, 0.0],
            "boolean": [True, False],
        }
        return self.rng.choice(options[schema_type])

    def item(self, item_type: str) -> Any:
        r = self.rng
        if item_type == "dict" and r.random() < 0.7:
            return {
                r.choice("kj"): [self.scalar()] + ([""] if r.random() < 0.3 else [])
                for _ in range(r.randint(1, 2))
            }
        if item_type in ("string", "integer", "float", "boolean") and r.random() < 0.7:
            return self.typed(item_type)
        return self.scalar()

    def alternatives(self, schema_type: str, item_type: str | None) -> list[Any]:
        r = self.rng
        out: list[Any] = []
        for _ in range(r.randint(0, 3)):
            if r.random() < 0.5:
                if schema_type in ("array", "tuple"):
                    out.append([self.item(item_type or "string") for _ in range(r.randrange(3))])
                elif schema_type == "dict":
                    out.append(
                        {
                            r.choice("kjK"): [self.scalar() for _ in range(r.randint(0, 2))]
                            + ([""] if r.random() < 0.3 else [])
                            for _ in range(r.randint(0, 2))
                        }
                    )
                else:
                    out.append(self.typed(schema_type))
            else:
                out.append(self.scalar())
        if r.random() < 0.4:
            out.insert(r.randrange(len(out) + 1), "")
        return out

    def value(self, alternatives: list[Any], schema_type: str, item_type: str | None) -> Any:
        r = self.rng
        real = [a for a in alternatives if a != ""]
        if real and r.random() < 0.6:
            value = copy.deepcopy(r.choice(real))
            if isinstance(value, dict) and all(isinstance(o, list) for o in value.values()):
                value = {
                    k: r.choice([o for o in opts if o != ""] or [1])
                    for k, opts in value.items()
                    if not ("" in opts and r.random() < 0.5)
                }
            elif isinstance(value, list) and value and isinstance(value[0], dict):
                value = [
                    {
                        k: r.choice([o for o in opts if o != ""] or [1])
                        if isinstance(opts, list)
                        else opts
                        for k, opts in d.items()
                    }
                    if isinstance(d, dict)
                    else d
                    for d in value
                ]
            if isinstance(value, str) and r.random() < 0.3:
                value = value.upper() + r.choice([" ", "-", ":", ""])
            return value
        if schema_type in ("array", "tuple") and r.random() < 0.5:
            kind = r.choice([list, tuple])
            return kind(self.item(item_type or "string") for _ in range(r.randrange(3)))
        return self.scalar()

    def record(self, n: int) -> Record:
        r = self.rng
        functions = []
        for f in range(r.randint(1, 3)):
            props: dict[str, Any] = {}
            for p in r.sample(["a", "b", "c", "d"], r.randint(0, 4)):
                spec: dict[str, Any] = {"type": r.choice(TYPES)}
                if spec["type"] in ("array", "tuple"):
                    spec["items"] = {"type": r.choice(ITEM_TYPES)}
                props[p] = spec
            name = r.choice(["f", "g.h", "a.b.c", "k_l"]) + str(f)
            required = [p for p in props if r.random() < 0.5]
            functions.append(
                {
                    "name": name,
                    "parameters": {"type": "dict", "properties": props, "required": required},
                }
            )
        truth = []
        for _ in range(r.randint(1, 3)):
            fn = r.choice(functions)
            params = {
                p: self.alternatives(spec["type"], spec.get("items", {}).get("type"))
                for p, spec in fn["parameters"]["properties"].items()
                if r.random() < 0.8
            }
            if r.random() < 0.1:
                params["zz"] = [1]  # answered, but not in the schema
            truth.append({fn["name"]: params})
        category = r.choice(CATEGORIES)
        if "parallel" not in category and "multiple" not in category:
            first = next(iter(truth[0]))
            functions.sort(key=lambda fn: fn["name"] != first)  # simple: the answer's first
        return Record(f"{category}_{n}", category, functions, truth)

    def output(self, record: Record, underscore_to_dot: bool) -> list[Any]:
        r = self.rng
        calls = record.ground_truth if r.random() < 0.8 else record.ground_truth[:-1]
        out = []
        for call in calls:
            ((name, params),) = call.items()
            fn = next(f for f in record.functions if f["name"] == name)
            args: dict[str, Any] = {}
            for p, alternatives in params.items():
                spec = fn["parameters"]["properties"].get(p, {"type": "string"})
                if "" in alternatives and r.random() < 0.4:
                    continue
                args[p] = self.value(alternatives, spec["type"], spec.get("items", {}).get("type"))
            if r.random() < 0.1:
                args["zz"] = 1
            dotted = underscore_to_dot and r.random() < 0.9
            out.append({name.replace(".", "_") if dotted else name: args})
        if r.random() < 0.5:
            r.shuffle(out)
        return out


def generate(n: int, seed: int = 0) -> Iterator[Case]:
    """``n`` made-up records, each with one made-up output."""
    maker = _Maker(random.Random(seed))
    for i in range(n):
        record = maker.record(i)
        underscore_to_dot = maker.rng.random() < 0.3
        yield Case(record, "synthetic", maker.output(record, underscore_to_dot), underscore_to_dot)
