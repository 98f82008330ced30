"""BFCL's single-call check: one model call against one schema and one possible answer.

The order of the checks is BFCL's, and the first problem found is the one BFCL reports:

1. the function name (the schema's, dots turned into underscores with ``underscore_to_dot``);
2. every parameter the schema requires is present;
3. every parameter the model passed, in the model's order: known to the schema *and* to the
   answer, then its type (after int -> float for float parameters), then its value;
4. every answered parameter the model left out allows ``""``.

:func:`check_call` keeps going after the first problem (unless asked not to), so a failure can
list every problem; the first one always carries BFCL's error type.
"""

from toolscore._engine.bfcl_rules import (
    Finding,
    call_name,
    check_call,
)
from toolscore._engine.bfcl_rules import (
    check_dict as check_dict,
)
from toolscore._engine.bfcl_rules import (
    check_param as check_param,
)

__all__ = ["Finding", "call_name", "check_call"]
