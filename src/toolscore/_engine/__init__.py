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
"""
