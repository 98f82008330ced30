"""The machinery behind toolscore's public modules (private: no stable API).

One package per stage of the pipeline; each imports only the stages below it (checked by
``lint-imports`` and ``tests/test_import_cycles.py``)::

    snapshots/  beside the pipeline, on top: snapshot files, drift, states, the fixture
    check/      what a test asserts: assertions, trajectories, conversations, streams
    judge/      the tool-call judge: configuration, verdicts, Semantic, judged evaluation
    score/      evaluate(), the flat metrics, the result, rendering; metrics/, validators/
    read/       what users pass, provider shapes, streams, OTel, trace and gold files
    align/      the one-to-one pairing of expected and actual calls
    bfcl/       beside the pipeline: BFCL's values, rules and matchers
    compare/    the one comparison rule, the pure matchers, argument units
    generate/   values from a JSON Schema (gold cases, scenario probes)

Nothing here imports a toolscore module outside ``_engine``
(``tests/toolscore/test_engine_layering.py``); the public modules re-export its objects (the
same objects). ``docs/contributing.md`` draws the map and says where new code goes.
"""
