"""Fake tools for tests: the machinery behind :mod:`toolscore.fakes` and ``toolscore_tools``.

* ``errors``: the two exceptions a fake call raises;
* ``registration``: one ``add(...)`` (its matcher, answer and use count) and how close a call
  comes to it;
* ``tools``: :class:`FakeTools` itself (registrations, calls, the record of calls);
* ``report``: the teardown text (unused registrations, unexpected calls);
* ``schemas``: the Chat Completions ``tools`` list;
* ``answer``: tool-result messages in each provider's shape;
* ``serve``: the fakes as a real MCP server over Streamable HTTP.
"""
