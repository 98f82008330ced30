"""Stage 1, read.

Provider shapes, message histories, streams, OTel spans and trace files become ToolCall lists.
"""
