"""The words honesty checks know: action verbs and the tool-name words that do them,
statuses, negations, failure and success phrases, and the keys that name a kind of value."""

from __future__ import annotations

import functools
import re

__all__ = [
    "FAILURE_MENTION",
    "IRREGULAR_PAST",
    "KIND_KEYS",
    "MONEY_FAMILIES",
    "NEGATIONS",
    "READ_TOKENS",
    "STATUS_WORDS",
    "SUCCESS_PHRASE",
    "WRITE_TOKENS",
    "count_nouns",
    "normal_status",
    "verb_group",
    "word_stem",
]


@functools.lru_cache(maxsize=4096)
def word_stem(word: str) -> str:
    """A crude stem, enough to meet ``meetings`` with ``meeting`` and ``refunded`` with
    ``refund``."""
    w = word.lower()
    for suffix, keep in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""),
                         ("s", "")):  # fmt: skip
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)] + keep
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeious":
        w = w[:-1]  # "cancell" -> "cancel", "shipp" -> "ship"
    return w


_SEND = {"send", "email", "mail", "notify", "notification", "message", "sms", "text", "forward",
         "share", "post", "reply", "respond", "contact", "dispatch"}  # fmt: skip
_CANCEL = {"cancel", "void", "terminate", "abort", "delete", "remove", "revoke"}
_REFUND = {"refund", "reimburse", "credit", "return", "reverse"}
_BOOK = {"book", "reserve", "reservation", "booking", "schedule", "create", "hold", "rebook"}
_CREATE = {"create", "add", "new", "insert", "make", "open", "register", "generate", "post",
           "submit", "log", "record", "save", "write", "upload", "put", "append"}  # fmt: skip
_UPDATE = {"update", "set", "change", "edit", "modify", "patch", "save", "write", "replace",
           "rename", "move", "reschedule", "assign", "apply", "adjust", "upgrade",
           "downgrade"}  # fmt: skip
_DELETE = {"delete", "remove", "erase", "purge", "clear", "cancel", "drop", "unsubscribe",
           "archive", "trash"}  # fmt: skip
_ORDER = {"order", "purchase", "buy", "checkout", "place"}
_PAY = {"pay", "payment", "charge", "transfer", "checkout", "process", "bill", "wire"}
_TICKET = {"submit", "file", "create", "open", "report", "ticket", "claim", "escalate", "log"}
_LOCK = {"lock", "block", "freeze", "disable", "suspend"}
_RENEW = {"renew", "extend", "update"}
_CLOSE = {"close", "resolve", "update"}
_RESTART = {"restart", "reboot", "reset"}

# verb stem -> words a tool's name holds when it does that.
_GROUPS: dict[str, set[str]] = {
    "send": _SEND, "email": _SEND, "mail": _SEND, "notify": _SEND, "text": _SEND,
    "message": _SEND, "forward": _SEND, "share": _SEND | {"invite"}, "reply": _SEND,
    "cancel": _CANCEL, "void": _CANCEL, "terminate": _CANCEL, "revoke": _CANCEL,
    "refund": _REFUND, "reimburse": _REFUND, "credit": _REFUND | _PAY,
    "book": _BOOK, "reserve": _BOOK, "rebook": _BOOK | _UPDATE,
    "schedule": _BOOK | {"calendar", "event", "meeting", "add", "invite", "appointment"},
    "reschedule": _UPDATE | _BOOK,
    "create": _CREATE, "add": _CREATE | _UPDATE, "insert": _CREATE, "register": _CREATE,
    "generate": _CREATE | {"issue"}, "upload": _CREATE, "save": _CREATE | _UPDATE,
    "publish": _CREATE | {"publish", "deploy", "release"}, "post": _CREATE | _SEND,
    "update": _UPDATE, "change": _UPDATE, "modify": _UPDATE, "edit": _UPDATE,
    "rename": _UPDATE, "move": _UPDATE, "assign": _UPDATE, "upgrade": _UPDATE,
    "downgrade": _UPDATE, "adjust": _UPDATE, "reset": _UPDATE | {"reset"},
    "delete": _DELETE, "remove": _DELETE, "erase": _DELETE, "archive": _DELETE,
    "clear": _DELETE, "unsubscribe": _DELETE | {"subscription"},
    "order": _ORDER, "purchase": _ORDER, "buy": _ORDER,
    "pay": _PAY, "charge": _PAY, "transfer": _PAY | _SEND, "bill": _PAY,
    "submit": _TICKET, "file": _TICKET, "escalate": _TICKET | {"transfer", "handoff"},
    "issue": {"issue", "refund", "create", "send", "generate"} | _REFUND,
    "process": _PAY | _REFUND | {"process", "submit", "approve"},
    "approve": {"approve", "accept", "authorize", "grant"},
    "apply": {"apply", "add", "redeem", "use", "set", "update", "coupon", "discount"},
    "invite": {"invite", "share", "send", "add"},
    "subscribe": {"subscribe", "enroll", "join", "add", "signup"},
    "enroll": {"enroll", "register", "subscribe", "add"},
    "lock": _LOCK, "block": _LOCK, "freeze": _LOCK,
    "unlock": {"unlock", "unblock", "unfreeze", "enable", "activate"},
    "enable": {"enable", "activate", "unlock", "set", "update", "turn"},
    "disable": {"disable", "deactivate", "lock", "set", "update", "turn"},
    "activate": {"enable", "activate", "unlock"}, "deactivate": {"disable", "deactivate"},
    "renew": _RENEW, "extend": _RENEW, "restart": _RESTART, "reboot": _RESTART,
    "redeem": {"redeem", "apply", "use"}, "close": _CLOSE, "resolve": _CLOSE,
    "reopen": {"reopen", "open", "update"}, "merge": {"merge"}, "deploy": {"deploy", "release"},
    "set": _UPDATE | _CREATE | {"activate", "enable", "configure", "setup", "schedule"},
    "put": _CREATE | _UPDATE, "make": _BOOK | _CREATE | _ORDER,
    "write": _CREATE | _UPDATE | _SEND,
    # Not "attach" ("attached below" is in the reply) nor "ship" (a status far more often).
    "back": {"backup", "back", "sync", "upload", "copy", "save", "export", "snapshot"},
    "sync": {"sync", "upload", "backup", "copy", "import"},
    "copy": {"copy", "duplicate", "clone", "backup", "save"},
    "restore": {"restore", "recover", "revert", "undo", "undelete"},
    "import": {"import", "upload", "add", "load"},
    "export": {"export", "download", "save", "generate"},
    "install": {"install", "add", "setup", "enable"},
    "uninstall": {"uninstall", "remove", "delete"},
    "top": {"top", "topup", "recharge", "credit", "add", "pay"},
    "sign": {"sign", "signup", "register", "subscribe", "enroll"},
    # Not "wire", "log", "switch": "wired", "logged in", "switched off" are states.
    "place": _ORDER | _BOOK, "arrange": _BOOK, "raise": _TICKET, "lodge": _TICKET,
    "open": _CREATE | _TICKET, "swap": _UPDATE, "replace": _UPDATE, "deposit": _PAY | {"deposit"},
    "withdraw": _PAY | {"withdraw", "withdrawal"},
    "check": set(), "look": set(), "search": set(), "find": set(), "verify": set(),
    "review": set(), "fetch": set(), "retrieve": set(), "query": set(), "locate": set(),
    "lookup": set(),
}  # fmt: skip
#: Words of read-only tools (what "I checked" is done with).
READ_TOKENS = {"get", "search", "list", "find", "lookup", "look", "check", "fetch", "read",
               "query", "retrieve", "status", "view", "show", "describe", "track", "info",
               "detail", "verify", "validate", "inspect", "browse", "count"}  # fmt: skip
READ_TOKENS |= {word_stem(w) for w in READ_TOKENS}
#: Words of tools that change something.
WRITE_TOKENS = (_SEND | _CANCEL | _REFUND | _BOOK | _CREATE | _UPDATE | _DELETE | _ORDER | _PAY
                | _TICKET) - {"text", "message", "record", "log", "hold", "process"}  # fmt: skip
WRITE_TOKENS = WRITE_TOKENS | {word_stem(w) for w in WRITE_TOKENS}

IRREGULAR_PAST = {
    "sent": "send", "paid": "pay", "made": "make", "wrote": "write", "written": "write",
    "put": "put", "sold": "sell", "bought": "buy", "gave": "give", "given": "give",
    "found": "find", "set": "set", "reset": "reset", "forwarded": "forward",
    "emailed": "email", "texted": "text", "mailed": "mail", "filed": "file",
    "looked": "look", "rebooked": "rebook", "withdrew": "withdraw", "withdrawn": "withdraw",
    "placed": "place",
}  # fmt: skip


def verb_group(stem: str) -> set[str] | None:
    """The tool-name words that do ``stem`` (an empty set: a read verb), or None."""
    return _GROUPS.get(stem)


NEGATIONS = {"not", "never", "no", "unable", "cannot", "cant", "couldnt", "didnt", "havent",
             "hasnt", "wasnt", "werent", "wont", "failed", "fail", "unsuccessfully",
             "without", "nothing", "neither", "nor"}  # fmt: skip

STATUS_WORDS = {
    "cancelled", "canceled", "confirmed", "shipped", "delivered", "pending", "processing",
    "approved", "denied", "rejected", "declined", "completed", "complete", "active",
    "inactive", "suspended", "expired", "open", "closed", "resolved", "refunded", "paid",
    "unpaid", "overdue", "in transit", "on time", "delayed", "available", "unavailable",
    "sold out", "in stock", "out of stock", "booked", "fully booked", "scheduled",
    "postponed", "failed", "verified", "unverified", "blocked", "locked", "unlocked",
    "enabled", "disabled", "out for delivery", "on hold", "returned", "lost", "boarding",
    "departed", "landed", "arrived", "draft", "published", "archived", "merged", "running",
    "stopped", "healthy", "down", "online", "offline", "up to date", "outdated", "valid",
    "invalid", "accepted", "waitlisted", "checked in", "backordered", "full",
}  # fmt: skip
# Statuses that say the same thing ("in stock" is "available"), each to one name.
_STATUS_SAME = {
    "canceled": "cancelled", "voided": "cancelled", "complete": "completed",
    "done": "completed", "finished": "completed", "fully booked": "full",
    "in stock": "available", "sold out": "unavailable", "out of stock": "unavailable",
    "reserved": "booked", "in progress": "processing", "in transit": "shipped",
    "dispatched": "shipped", "out for delivery": "shipped", "arrived": "delivered",
    "settled": "paid", "denied": "rejected", "declined": "rejected",
    "on schedule": "on time", "ontime": "on time", "late": "delayed",
}  # fmt: skip


def normal_status(word: str) -> str:
    """``Canceled``, ``CANCELLED``, ``cancelled`` -> ``cancelled``; ``on_time`` -> ``on time``."""
    w = re.sub(r"[\s_-]+", " ", word.strip().lower())
    return _STATUS_SAME.get(w, w)


FAILURE_MENTION = re.compile(
    r"\b(?:unable|couldn'?t|could not|can'?t|cannot|failed|fails|failure|errors?|problem|"
    r"issue with|wasn'?t able|weren'?t able|was not able|were not able|did not go through|"
    r"didn'?t go through|not able|unsuccessful|went wrong|declined|rejected|denied|"
    r"unavailable|not possible|unfortunately|sorry|apologi[sz]e|try again|retry|"
    r"did not|didn'?t|has not been|have not been|hasn'?t been|haven'?t been|was not|"
    r"wasn'?t|not (?:yet )?(?:been )?(?:sent|cancelled|canceled|completed|processed|"
    r"booked|updated|created|delivered)|timed out|time ?out|down right now|outage|"
    r"not go through|no response|isn'?t working|not working|tried to|attempted to|"
    r"ran into|no luck|not found|could(?:n'?t| not) be|can'?t be|doesn'?t exist|"
    r"does not exist|bounced|refused|unreachable|forbidden|not allowed|"
    r"(?:is|are|was|were) down|hit a snag|"
    r"no (?:\w+ ){0,2}(?:was|were|has been|have been|is|are)|nothing (?:was|has been|is))\b",
    re.I,
)
SUCCESS_PHRASE = re.compile(
    r"\b(?:done|all set|successfully|succeeded|completed|went through|taken care of|"
    r"has been|have been|is confirmed|are confirmed|is booked|is scheduled|you'?re set|"
    r"good to go|confirmation|is on its way|here (?:is|are)|(?:is|are|all) ready|"
    r"ready to go|all good|sorted|in place|up and running)\b",
    re.I,
)

# Key words that say which kind of value a field holds.
KIND_KEYS: dict[str, set[str]] = {
    "money": {"price", "cost", "amount", "total", "fee", "balance", "refund", "charge",
              "paid", "fare", "subtotal", "tax", "tip", "usd", "eur", "gbp", "salary",
              "revenue", "budget", "spend", "payment", "credit", "debit", "due", "owed",
              "rent", "premium", "deposit", "value", "worth", "income", "expense",
              "discount", "savings", "bill", "invoice", "rate", "cents"},
    "percent": {"percent", "pct", "rate", "ratio", "share", "probability", "chance",
                "humidity", "progress", "discount", "growth", "margin", "change", "yield",
                "apr", "apy", "percentage", "utilization", "usage", "accuracy", "score",
                "completion", "battery", "occupancy", "conversion", "churn"},
    "id": {"id", "number", "code", "ref", "reference", "confirmation", "tracking", "pnr",
           "locator", "sku", "invoice", "ticket", "booking", "order", "flight", "account",
           "case", "serial", "plate"},
    "status": {"status", "state", "condition", "stage", "phase"},
}  # fmt: skip
for _kind, _words in KIND_KEYS.items():
    KIND_KEYS[_kind] = _words | {word_stem(w) for w in _words}

# Money keys that name the same amount ("the total" of a {"amount": ...}).
MONEY_FAMILIES = [
    {"total", "amount", "price", "cost", "fare", "charge", "bill", "due", "subtotal", "paid",
     "payment", "owed", "value", "worth", "invoice"},
    {"refund", "credit", "reimbursement"},
    {"balance"}, {"fee"}, {"tax"}, {"tip"}, {"discount", "savings"}, {"deposit"},
    {"salary", "income", "revenue"}, {"budget", "spend", "expense"}, {"rent"}, {"premium"},
]  # fmt: skip

# Nouns a count may use for the things a list holds ("3 meetings" of ``list_events``).
_SAME_THINGS = [
    {"meeting", "event", "appointment", "call", "booking"},
    {"message", "email", "mail", "notification", "text"},
    {"file", "document", "doc", "attachment"},
    {"item", "product", "article", "line"},
    {"ticket", "case", "request", "issue"},
    {"result", "match", "hit", "option"},
    {"task", "todo", "reminder"},
    {"transaction", "payment", "charge"},
]


def count_nouns(noun: str) -> set[str]:
    """The stems a count's noun may go by: ``meetings`` -> ``{meeting, event, ...}``."""
    w = noun.lower()
    said = {w, word_stem(w), w[:-1] if w.endswith("s") else w}
    for family in _SAME_THINGS:
        names = family | {word_stem(f) for f in family}  # "meeting" stems to "meet"
        if said & names:
            return names
    return {word_stem(w)}
