"""scorekit: the shared engine behind ``toolscore`` and ``pytest_texts_score``.

Private to the distribution; the faces import it through these packages only (never an
underscore module), and it imports neither face. From the bottom up:

* ``format``, ``files``, ``runtime``, ``stats``: rounding and tables, data files, the
  event-loop thread, plain-Python statistics;
* ``judges``: backends, settings, retries, the concurrency limit, the Judge and its audit log;
* ``local``: the embedded offline judge;
* ``session``: a scoring session and what it holds (cache, budget, question sets, audits);
* ``report``: rows, the terminal summary, JSON/HTML/Markdown/CSV/JUnit, baselines;
* ``batch``: datasets scored in batches on local workers or Ray;
* ``cli``: what the commands share (option types, output, exit codes);
* ``pytest_state`` and ``pytest_plugin`` (machinery in ``_pytest``): the pytest side.
"""

__all__: list[str] = []
