"""The machinery of the shared pytest plugin (``scorekit.pytest_plugin``); only it imports this."""
