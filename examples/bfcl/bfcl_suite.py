"""A BFCL category as one pytest test per question: python -m pytest examples/bfcl/bfcl_suite.py"""

import json
from pathlib import Path

from toolscore import bfcl

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[1] / "tests" / "toolscore" / "bfcl" / "data"
# A stand-in for your agent: the outputs one model gave, as a BFCL result file.
RECORDED = {
    record["id"]: record["result"]
    for record in map(json.loads, (HERE / "BFCL_v4_parallel_result.json").open())
}


def my_agent(messages, functions, case_id):
    return RECORDED[case_id]


@bfcl.parametrize(DATA / "BFCL_v4_parallel.json", DATA / "possible_answer_BFCL_v4_parallel.json")
def test_parallel(case):
    output = my_agent(case.messages, case.functions, case.id)
    bfcl.assert_bfcl(case, output)
