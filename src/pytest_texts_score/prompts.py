"""Prompt templates of the LLM judges (``openai``, ``azure``).

The texts under test are data, not instructions: each text sits between tags that the system
prompts tell the judge to read and never obey, and a tag inside a text is neutralised. Replies
are compact JSON: an array of question strings, and an object mapping question numbers to
numbers in ``[0, 1]``. Modifying the prompts changes scores; the cache keys include a prompt
version so that cached replies of older prompts are not reused.
"""

from __future__ import annotations

from scorekit import judges

__all__ = [
    "get_system_answers_prompt",
    "get_system_questions_prompt",
    "get_user_answers_prompt",
    "get_user_questions_prompt",
]


def get_system_answers_prompt() -> str:
    """Get the system prompt for answering questions.

    It instructs the judge to answer numbered questions from a text with one number in
    ``[0, 1]`` each, using only the text.

    Returns:
        The question answering prompt string.

    Example:
        >>> "[0, 1]" in get_system_answers_prompt()
        True
    """
    return judges.get_system_answers_prompt()


def get_system_questions_prompt() -> str:
    """Get the system prompt for generating questions.

    It instructs the judge to write one factual yes/no question per fact of a text.

    Returns:
        The question generation prompt string.

    Example:
        >>> "yes/no" in get_system_questions_prompt()
        True
    """
    return judges.get_system_questions_prompt()


def get_user_answers_prompt(answer_text: str, questions_text: str) -> str:
    """Create a user prompt for answering questions.

    Args:
        answer_text: the text to use for answering the questions.
        questions_text: the JSON string of questions to be answered (an array of strings or an
            object mapping question numbers to questions).

    Returns:
        The formatted user prompt string, both parts delimited as data.

    Example:
        >>> "Paris is in France." in get_user_answers_prompt(
        ...     "Paris is in France.", '["Is Paris in France?"]')
        True
    """
    return judges.get_user_answers_prompt(answer_text, questions_text)


def get_user_questions_prompt(text: str) -> str:
    """Create a user prompt for question generation.

    Args:
        text: the text to generate questions from.

    Returns:
        The formatted user prompt string, the text delimited as data.

    Example:
        >>> "Paris is in France." in get_user_questions_prompt("Paris is in France.")
        True
    """
    return judges.get_user_questions_prompt(text)
