"""Closed word classes the unit checks read: hedges, quantifiers, opposites, privative verbs.

Each list names a way a statement can change a fact while keeping almost every word: "may"
for "will", "some" for "all", "fell" for "rose", "lost" for "won". The lists are small on
purpose; words are compared by their light stem (``_lexicon.stem``).
"""

from __future__ import annotations

#: Words that turn a claim into a possibility (or a plan): "may cut" is not "cut".
HEDGES = frozenset(
    [
        # Permission words: "may work from home" is "is allowed to work from home".
        "allowed",
        "permitted",
        "may",
        "might",
        "could",
        "possibly",
        "perhaps",
        "maybe",
        "likely",
        "unlikely",
        "probably",
        "reportedly",
        "allegedly",
        "expected",
        "plans",
        "planned",
        "planning",
        "considering",
        "consider",
        "considers",
        "proposed",
        "proposes",
        "potential",
        "potentially",
    ]
)

#: Quantifier classes: a statement with one class is contradicted by a passage with another.
QUANTIFIERS: dict[str, str] = {
    **dict.fromkeys(
        ["all", "every", "each", "entire", "whole", "always", "everyone", "everything"], "all"
    ),
    **dict.fromkeys(["most", "majority", "mostly"], "most"),
    **dict.fromkeys(["half"], "half"),
    **dict.fromkeys(
        [
            "some",
            "several",
            "few",
            "many",
            "minority",
            "sometimes",
            "occasionally",
            "partly",
            "part",
        ],
        "some",
    ),
    **dict.fromkeys(["none", "nobody", "nothing"], "none"),
}

#: Verbs of ending or lacking: "support was dropped" states what "no longer supported" does.
PRIVATIVES = frozenset(
    [
        # "for free", "free of charge": no payment ("costs nothing").
        "free",
        "drop",
        "dropped",
        "dropping",
        "drops",
        "remove",
        "removed",
        "removes",
        "removing",
        "discontinue",
        "discontinued",
        "discontinues",
        "ended",
        "ends",
        "stop",
        "stopped",
        "stops",
        "cease",
        "ceased",
        "ceases",
        "abandon",
        "abandoned",
        "cancel",
        "cancelled",
        "canceled",
        "cancels",
        "withdraw",
        "withdrew",
        "withdrawn",
        "deprecate",
        "deprecated",
        "lack",
        "lacks",
        "lacked",
        "missing",
        "absent",
        "lose",
        "lost",
        "loses",
        "fail",
        "failed",
        "fails",
        "refuse",
        "refused",
        "refuses",
        "deny",
        "denied",
        "denies",
        "reject",
        "rejected",
        "rejects",
        "retire",
        "retired",
        "scrap",
        "scrapped",
        "halt",
        "halted",
        "suspend",
        "suspended",
    ]
)

#: Nouns naming the act of a verb of ending or lacking: "the cancellation of flights" states
#: what "flights were cancelled" does.
PRIVATIVE_NOUNS = {
    "cancellation": "cancel", "cancellations": "cancel", "cancelation": "cancel",
    "removal": "remove", "discontinuation": "discontinue", "cessation": "cease",
    "abandonment": "abandon", "withdrawal": "withdraw", "deprecation": "deprecate",
    "refusal": "refuse", "denial": "deny", "rejection": "reject", "retirement": "retire",
    "suspension": "suspend", "failure": "fail", "loss": "lose", "losses": "lose",
}  # fmt: skip

_OPPOSITES = """
increase decrease | increase reduce | increase cut | increase fall | increase drop
| increase decline | rise fall | rise drop | rise decline | rose fell | grow shrink | grew shrank
| grow fall | grew fell | gain loss | gain lose | profit loss | win lose | won lost | win loss
| beat lost | victory defeat | before after | earlier later | early late | above below
| more less | more fewer | higher lower | high low | highest lowest | up down | open close
| opened closed | accept reject | accepted rejected | approve reject | approved rejected
| buy sell | bought sold | start end | started ended | begin end | began ended | first last
| maximum minimum | positive negative | success failure | succeeded failed | strong weak
| stronger weaker | large small | larger smaller | big small | bigger smaller | long short
| longer shorter | best worst | better worse | easy difficult | easier harder | easy hard
| fast slow | faster slower | cheap expensive | cheaper dearer | true false | include exclude
| included excluded | allow forbid | allowed banned | allow ban | allow prohibit
| enable disable | enabled disabled | add remove | added removed | hire fire | hired fired
| import export | agree disagree | support oppose | supported opposed | like dislike
| love hate | new old | young old | private public | internal external | input output
| north south | east west | left right | men women | man woman | male female | boy girl
| husband wife | son daughter | father mother | brother sister | day night
| morning evening | past future | arrive depart | arrived departed | inside outside
| rich poor | wet dry | hot cold | warm cool | heavy light | full empty | safe dangerous
| legal illegal | guilty innocent | convicted acquitted | alive dead | present absent
| majority minority | maximum minimum | always never | often rarely | increased decreased
| increases decreases | lowered raised | lower raise | rises falls | raised cut
| surplus deficit | optimistic pessimistic | bullish bearish | upgrade downgrade
| upgraded downgraded | expand contract | expanded contracted | strengthen weaken
| improve worsen | improved worsened | attack defend | win draw | won drew | home away
| senior junior | upper lower | inbound outbound | import exported | entry exit
| appointed dismissed | joined left | join leave | elected defeated | credit debit
| asset liability | overestimate underestimate | overestimated underestimated
| overvalued undervalued | ascending descending | accelerate decelerate | encourage discourage
| encouraged discouraged | possible impossible | likely unlikely | able unable | happy sad
| confirmed denied | confirm deny | pass fail | passed failed | winner loser | buyer seller
| lender borrower | employer employee | teacher student | parent child | host guest
| landlord tenant | seller buyer | send receive | sent received | give take | gave took
| lend borrow | lent borrowed | push pull | remember forget | remembered forgot
"""


def _pairs() -> list[tuple[str, str]]:
    out = []
    for item in _OPPOSITES.split("|"):
        words = item.split()
        if len(words) == 2:
            out.append((words[0], words[1]))
    return out


OPPOSITE_PAIRS: tuple[tuple[str, str], ...] = tuple(_pairs())
