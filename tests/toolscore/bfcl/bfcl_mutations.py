"""Generated model outputs for BFCL records: a correct output, then mutations of it.

Used by the conformance test (ours beside BFCL's checker) and by ``benchmarks/bench_bfcl.py``.
A correct output picks one allowed value per answered parameter (leaving optional ones out at
random) and builds dict and list-of-dict values key by key. Each mutation kind changes it the
way real model outputs differ from answers; ``mixed`` applies two or three of them.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
CATEGORIES = ("simple_python", "multiple", "parallel", "parallel_multiple")
NORMALISED_CHARS = " ,./-_*^"
KEPT_CHARS = "\t\u00a0:;!?()'\"#"


@dataclass
class Record:
    id: str
    category: str
    functions: list[dict[str, Any]]
    ground_truth: list[dict[str, Any]]


@dataclass
class Case:
    record: Record
    kind: str
    output: list[Any]
    underscore_to_dot: bool


def load_records(folder: Path = DATA, categories: tuple[str, ...] = CATEGORIES) -> list[Record]:
    """Records of the four single-turn Python categories from BFCL-named files in ``folder``
    (``BFCL_v4_<cat>.json`` with ``possible_answer_BFCL_v4_<cat>.json`` beside it or in
    ``possible_answer/``)."""
    out = []
    for category in categories:
        questions = folder / f"BFCL_v4_{category}.json"
        answers = folder / f"possible_answer_BFCL_v4_{category}.json"
        if not answers.exists():
            answers = folder / "possible_answer" / f"BFCL_v4_{category}.json"
        if not questions.exists() or not answers.exists():
            continue
        truth = {}
        for line in answers.read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                truth[record["id"]] = record["ground_truth"]
        for line in questions.read_text().splitlines():
            if line.strip():
                q = json.loads(line)
                if q["id"] in truth:
                    out.append(Record(q["id"], category, q["function"], truth[q["id"]]))
    return out


def _schema(record: Record, name: str, position: int) -> dict[str, Any]:
    if record.category == "simple_python":
        return record.functions[0]
    return next((f for f in record.functions if f["name"] == name), record.functions[0])


def _name(schema: dict[str, Any], underscore_to_dot: bool) -> str:
    name: str = schema["name"]
    return name.replace(".", "_") if underscore_to_dot else name


def _pick(alternatives: list[Any], rng: random.Random, spec: dict[str, Any]) -> Any:
    real = [a for a in alternatives if a != ""]
    value = copy.deepcopy(rng.choice(real))
    if isinstance(value, dict) and spec.get("type") == "dict":
        return _dict_value(value, rng)
    items = spec.get("items") or {}
    if isinstance(value, list) and items.get("type") == "dict":
        return [_dict_value(v, rng) if isinstance(v, dict) else v for v in value]
    return value


def _dict_value(answer: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    out = {}
    for key, options in answer.items():
        real = [o for o in options if o != ""] if isinstance(options, list) else [options]
        if not real or ("" in options and rng.random() < 0.4):
            continue
        out[key] = copy.deepcopy(rng.choice(real))
    return out


def correct_output(record: Record, rng: random.Random, underscore_to_dot: bool) -> list[Any]:
    calls = []
    for position, call in enumerate(record.ground_truth):
        ((name, params),) = call.items()
        schema = _schema(record, name, position)
        required = set(schema["parameters"].get("required", ()))
        props = schema["parameters"].get("properties", {})
        args = {}
        names = list(params)
        rng.shuffle(names)
        for param in names:
            alternatives = params[param]
            real = [a for a in alternatives if a != ""]
            optional = "" in alternatives
            if param not in props or not real:
                continue  # BFCL accepts such a parameter only when it is left out
            if optional and param not in required and rng.random() < 0.4:
                continue
            args[param] = _pick(alternatives, rng, props.get(param, {}))
        calls.append({_name(schema, underscore_to_dot): args})
    if "parallel" in record.category:
        rng.shuffle(calls)
    return calls


# Mutations: each takes the output, the record, rng and the naming mode; changes the output.


def _any_param(out: list[Any], rng: random.Random) -> tuple[dict[str, Any], str] | None:
    slots = [(args, p) for call in out for args in call.values() for p in args]
    return rng.choice(slots) if slots else None


def _changed(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, value * 10, 0, -value or 7])
    if isinstance(value, float):
        return rng.choice([value + 0.01, value * 1.5, round(value), -value or 1.5])
    if isinstance(value, str):
        return rng.choice([value + "x", value[:-1], "other", "", value[::-1], value + " 2"])
    if isinstance(value, list):
        if value and rng.random() < 0.5:
            copy_ = list(value)
            del copy_[rng.randrange(len(copy_))]
            return copy_
        return [*value, copy.deepcopy(value[0]) if value else "extra"]
    if isinstance(value, dict):
        if value:
            key = rng.choice(list(value))
            return {**value, key: _changed(value[key], rng)}
        return {"extra": 1}
    return "changed"


def mutate_value(out: list[Any], record: Record, rng: random.Random, u2d: bool) -> None:
    slot = _any_param(out, rng)
    if slot:
        args, p = slot
        args[p] = _changed(args[p], rng)


def _restyle(text: str, rng: random.Random) -> str:
    pos = rng.randrange(len(text) + 1)
    choice = rng.randrange(7)
    if choice == 0:
        return text.upper()
    if choice == 1:
        return text.swapcase()
    if choice == 2:
        return text[:pos] + rng.choice(NORMALISED_CHARS) + text[pos:]
    if choice == 3:
        return text[:pos] + rng.choice(KEPT_CHARS) + text[pos:]
    if choice == 4:
        return text.replace("'", '"') if "'" in text else text.replace('"', "'") + "'"
    if choice == 5:
        return text.replace(" ", "")
    return "".join(c for c in text if c not in NORMALISED_CHARS) or text + "-"


def mutate_string(out: list[Any], record: Record, rng: random.Random, u2d: bool) -> None:
    strings = []
    for call in out:
        for args in call.values():
            for p, v in args.items():
                if isinstance(v, str):
                    strings.append((args, p, None))
                elif isinstance(v, list):
                    strings += [(args, p, i) for i, x in enumerate(v) if isinstance(x, str)]
                elif isinstance(v, dict):
                    strings += [(args, p, k) for k, x in v.items() if isinstance(x, str)]
    if not strings:
        return mutate_value(out, record, rng, u2d)
    args, p, where = rng.choice(strings)
    if where is None:
        args[p] = _restyle(args[p], rng)
    else:
        args[p][where] = _restyle(args[p][where], rng)
    return None


def _retyped(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return rng.choice([int(value), str(value).lower(), None])
    if isinstance(value, int):
        return rng.choice([float(value), str(value), bool(value), [value], None])
    if isinstance(value, float):
        return rng.choice([int(value), str(value), [value], None, round(value)])
    if isinstance(value, str):
        return rng.choice([len(value), [value], None, True, {"value": value}])
    if isinstance(value, list):
        return rng.choice([tuple(value), str(value), value[0] if value else 0, None, {}])
    if isinstance(value, dict):
        return rng.choice([list(value.items()), str(value), list(value), None])
    return rng.choice([0, "x", []])


def mutate_type(out: list[Any], record: Record, rng: random.Random, u2d: bool) -> None:
    slot = _any_param(out, rng)
    if slot:
        args, p = slot
        args[p] = _retyped(args[p], rng)


def mutate_name(out: list[Any], record: Record, rng: random.Random, u2d: bool) -> None:
    if not out:
        return
    i = rng.randrange(len(out))
    ((name, args),) = out[i].items()
    others = [f["name"] for f in record.functions if f["name"] != name]
    options = [
        name.replace(".", "_"),
        name.replace("_", "."),
        name.upper(),
        name[:1].upper() + name[1:],
        name + "s",
        "",
        *others,
    ]
    if others:
        options += [_name({"name": rng.choice(others)}, u2d)] * 2
    out[i] = {rng.choice(options): args}


def mutate_missing(out: list[Any], record: Record, rng: random.Random, u2d: bool) -> None:
    slot = _any_param(out, rng)
    if slot:
        args, p = slot
        del args[p]


def mutate_extra_param(out: list[Any], record: Record, rng: random.Random, u2d: bool) -> None:
    if not out:
        return
    call = rng.choice(out)
    ((name, args),) = call.items()
    schema = next((f for f in record.functions if _name(f, u2d) == name), record.functions[0])
    props = schema["parameters"].get("properties", {})
    answer = next((p for c in record.ground_truth for n, p in c.items() if n == schema["name"]), {})
    choices: list[tuple[str, Any]] = [("unknown_param", 1), ("verbose", True)]
    for p, spec in props.items():
        if p in args:
            continue
        if p in answer and [a for a in answer[p] if a != ""]:
            choices.append((p, _pick(answer[p], rng, spec)))
            choices.append((p, ""))
        choices.append(
            (
                p,
                {"string": "x", "integer": 1, "float": 1.0, "boolean": False}.get(
                    spec.get("type"), []
                ),
            )
        )
    p, value = rng.choice(choices)
    args[p] = value


def mutate_count(out: list[Any], record: Record, rng: random.Random, u2d: bool) -> None:
    choice = rng.randrange(4)
    if choice == 0 and out:
        del out[rng.randrange(len(out))]
    elif choice == 1 and out:
        out.insert(rng.randrange(len(out) + 1), copy.deepcopy(rng.choice(out)))
    elif choice == 2:
        schema = rng.choice(record.functions)
        out.append({_name(schema, u2d): {}})
    else:
        out.clear()


def mutate_order(out: list[Any], record: Record, rng: random.Random, u2d: bool) -> None:
    choice = rng.randrange(3)
    if choice == 0 and len(out) > 1:
        out.reverse()
        return
    lists = [
        (args, p)
        for c in out
        for args in c.values()
        for p, v in args.items()
        if isinstance(v, list) and len(v) > 1
    ]
    if choice == 1 and lists:
        args, p = rng.choice(lists)
        args[p] = list(reversed(args[p]))
        return
    for call in out:  # the order of the parameters inside a call
        ((name, args),) = call.items()
        items = list(args.items())
        rng.shuffle(items)
        call[name] = dict(items)


def mutate_items(out: list[Any], record: Record, rng: random.Random, u2d: bool) -> None:
    lists = [
        (args, p)
        for c in out
        for args in c.values()
        for p, v in args.items()
        if isinstance(v, list)
    ]
    if not lists:
        return mutate_type(out, record, rng, u2d)
    args, p = rng.choice(lists)
    value = list(args[p])
    if value:
        i = rng.randrange(len(value))
        value[i] = _retyped(value[i], rng)
    else:
        value.append(rng.choice([1, 1.5, "a", True, None, [1]]))
    args[p] = value
    return None


def mutate_dict(out: list[Any], record: Record, rng: random.Random, u2d: bool) -> None:
    dicts = [
        (args, p)
        for c in out
        for args in c.values()
        for p, v in args.items()
        if isinstance(v, dict) or (isinstance(v, list) and v and isinstance(v[0], dict))
    ]
    if not dicts:
        return mutate_value(out, record, rng, u2d)
    args, p = rng.choice(dicts)
    value = args[p] if isinstance(args[p], dict) else rng.choice(args[p])
    if not isinstance(value, dict):
        return mutate_value(out, record, rng, u2d)
    choice = rng.randrange(4)
    keys = list(value)
    if choice == 0 and keys:
        del value[rng.choice(keys)]
    elif choice == 1:
        value["extra_key"] = "x"
    elif choice == 2 and keys:
        key = rng.choice(keys)
        value[key.upper() if key != key.upper() else key.lower()] = value.pop(key)
    elif keys:
        key = rng.choice(keys)
        value[key] = rng.choice([_changed(value[key], rng), _retyped(value[key], rng)])
    return None


def mutate_variable(out: list[Any], record: Record, rng: random.Random, u2d: bool) -> None:
    slot = _any_param(out, rng)
    if slot:
        args, p = slot
        args[p] = rng.choice([None, "x", "data['x']", 'data["x"]', "", "None", "0"])


MUTATIONS: dict[str, Callable[[list[Any], Record, random.Random, bool], None]] = {
    "value": mutate_value,
    "string": mutate_string,
    "type": mutate_type,
    "name": mutate_name,
    "missing": mutate_missing,
    "extra_param": mutate_extra_param,
    "count": mutate_count,
    "order": mutate_order,
    "items": mutate_items,
    "dict": mutate_dict,
    "variable": mutate_variable,
}
KINDS = ("correct", *MUTATIONS, "mixed")


def generate(records: list[Record], n: int, seed: int = 0) -> Iterator[Case]:
    """``n`` cases, the kinds in turn, records and naming modes at random."""
    rng = random.Random(seed)
    for i in range(n):
        record = rng.choice(records)
        kind = KINDS[i % len(KINDS)]
        u2d = rng.random() < 0.25
        out = correct_output(record, rng, u2d)
        if kind == "mixed":
            for name in rng.sample(list(MUTATIONS), rng.randint(2, 3)):
                MUTATIONS[name](out, record, rng, u2d)
        elif kind != "correct":
            MUTATIONS[kind](out, record, rng, u2d)
        yield Case(record, kind, out, u2d)
