"""Small MCP servers the MCP tests start: each is run as ``python -m`` or a script."""
