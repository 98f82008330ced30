"""The ``toolscore`` command's subcommands, one module each (``cli.py`` registers them).

Each module exposes ``register(subparsers)``, which adds its parser and sets ``run`` to a
handler ``run(args, out) -> exit code``. Handlers raise :class:`~toolscore._cli.common.CommandError`
for bad input (one line on stderr, exit code 2) and import what they need on first use, so
``toolscore --help`` stays fast.
"""
