"""The ``texts-score`` command's subcommands, one module each (``cli.py`` registers them).

Each module exposes ``register(subparsers)``, which adds its parser and sets ``run`` to a
handler ``run(args, out) -> exit code``, as ``toolscore._cli`` does; ``common`` holds what they
share. Handlers import what they need on first use, so ``texts-score --help`` stays fast.
"""
