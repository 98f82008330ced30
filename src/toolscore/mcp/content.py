"""Turn the content of an MCP tool result into the text a client shows a model.

A ``tools/call`` result holds a list of content items: ``text``, an embedded ``resource``
(text or binary), a ``resource_link``, ``image`` and ``audio``. Keeping only the ``text`` items
would hide a file the server did return, so every item gets a text form here.
"""

from __future__ import annotations

from typing import Any

__all__ = ["content_to_text"]


def _item_text(item: Any) -> str | None:
    if hasattr(item, "model_dump"):  # an SDK content object
        item = item.model_dump(by_alias=True, mode="json", exclude_none=True)
    if not isinstance(item, dict):
        return None
    kind = item.get("type")
    if kind == "text":
        return str(item.get("text", ""))
    if kind == "resource":
        resource = item.get("resource")
        if not isinstance(resource, dict):
            return None
        uri = resource.get("uri", "")
        if isinstance(resource.get("text"), str):
            return f"[resource {uri}]\n{resource['text']}"
        mime = resource.get("mimeType")
        return f"[binary resource {uri}" + (f" ({mime})]" if mime else "]")
    if kind == "resource_link":
        name = item.get("name")
        return f"[resource link {item.get('uri', '')}" + (f" {name}]" if name else "]")
    if kind in ("image", "audio"):
        mime = item.get("mimeType")
        return f"[{kind}" + (f" ({mime})]" if mime else "]")
    return None


def content_to_text(content: Any) -> str:
    """The text an MCP client gives a model for a tool result's ``content``.

    Items are joined with newlines in their order: text as it is, an embedded text resource as
    ``[resource URI]`` and its body, binary resources, images and audio as a bracketed
    placeholder with the MIME type, a resource link as ``[resource link URI NAME]``. A string
    is returned unchanged, a JSON-RPC error object gives its message, unknown items are
    skipped.

    Example:
        >>> content_to_text([{"type": "text", "text": "3 hotels"},
        ...                  {"type": "image", "data": "...", "mimeType": "image/png"}])
        '3 hotels\\n[image (image/png)]'
    """
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        message = content.get("message")
        return "" if message is None else str(message)
    if not isinstance(content, (list, tuple)):
        return ""
    parts = [text for text in (_item_text(item) for item in content) if text is not None]
    return "\n".join(parts)
