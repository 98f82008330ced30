"""The machinery behind toolscore's public modules (private: no stable API).

Data flows one way::

    calls (read what users pass) -> align (one-to-one pairing: residual, agreement,
    assignment) -> compare (the one comparison rule) + counts (argument units)
    -> evaluate (every metric from the one alignment) -> result -> render (failure text)

``trace_files`` / ``trace_gold`` / ``trace`` read recorded trace and gold files;
``assertions`` builds ``assert_tools``, ``test_agent`` and ``cases`` on ``evaluate``.

``snapshot_files`` (names, canonical text), ``snapshot_drift`` (carried-over matchers, the
diff), ``snapshot_states`` (the state machine) and ``snapshot_fixture`` stand behind
``toolscore.snapshots``; ``metric_assertions`` holds the plugin's ``ToolscoreAssertions``.

Nothing here imports a toolscore module outside ``_engine`` (``tests/toolscore/
test_engine_layering.py`` walks every import): what the engine computes lives here, one module
per capability, and the public modules re-export it (the same objects). ``tool_call``
(``ToolCall``, ``BaseAdapter``), ``matchers``, ``grades`` (letter grades) and ``version`` are
the base; the metrics ``efficiency``, ``sequence``, ``trajectory_steps``, ``correctness``,
``secrets``, ``policy``, ``cost``, ``side_effects`` and ``judge_config`` (the tool-call judge's
configuration) stand behind ``toolscore.metrics``; ``recorded``, ``schema_validation``,
``sql_validator``, ``filesystem_validator`` and ``http_validator`` behind
``toolscore.validators``; ``provider_calls`` behind ``toolscore.integrations``;
``snapshot_store`` behind ``toolscore.snapshots``; ``bfcl_values``, ``bfcl_rules`` and
``bfcl_matchers`` (BFCL's gold-file matchers) behind ``toolscore.bfcl``.
"""
