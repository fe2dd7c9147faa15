"""The glossary of docs/translation.md ("Terms") checked against the Chinese catalogue: one
word for each term of the game. No database."""

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
GUIDE = ROOT / "docs" / "translation.md"

# Where a word of *never* stands for something else than the term: seats changing (轮换),
# bytes (字节), a fan's name (三节高), a round of a public random beacon (the draw's
# commitment names drand's rounds), which is not the game's.
OTHER_SENSES = ("轮换", "字节", "节高", "信标的某一轮", "第 1234567 轮")
# Messages that name a term in another sense: a file's name, code quoted on the API's page.
NOT_THE_TERM = ("Save the input below as session.json and run:",)
# A number in a message: a figure or a placeholder.
NUMBER = r"(?:\d+|%\(\w+\)[sd]|\{\w+\})"


def glossary() -> list[dict]:
    """The rows of the Terms table: the English term, its Chinese words, the words never
    used for it, and the English forms in which a message names it (as regular
    expressions)."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("## Terms") :]
    section = section[: section.index("\n## ", 1)]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("English", "---"):
            continue
        english, chinese, never, found_in = cells
        words = [re.sub(r"\s*\(.*\)", "", word).strip() for word in chinese.split(" / ")]
        forms = [form.strip() for form in found_in.split(",") if form.strip()]
        rows.append(
            {
                "term": english,
                "words": words,
                "never": [word.strip() for word in never.split(",") if word.strip()],
                "found_in": [
                    re.compile(
                        r"(?<!\w)" + re.escape(form).replace("N", NUMBER) + r"\b", re.IGNORECASE
                    )
                    for form in forms
                ],
            }
        )
    return rows


def messages():
    with CATALOGUE.open("rb") as file:
        catalogue = read_po(file)
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        yield ids, strings


def test_the_glossary_names_the_rules_words():
    rows = {row["term"]: row for row in glossary()}
    assert rows["session"]["words"] == ["局"]
    assert rows["hand (one deal)"]["words"] == ["盘"]
    assert rows["round (of winds)"]["words"] == ["圈"]
    assert set(rows["session"]["never"]) == {"轮", "节"}


@pytest.mark.parametrize("row", glossary(), ids=lambda row: row["term"])
def test_every_message_says_the_term_with_its_word(row):
    wrong = []
    for ids, strings in messages():
        if any(known in ids[0] for known in NOT_THE_TERM):
            continue
        for string in strings:
            kept = string
            for other in OTHER_SENSES:
                kept = kept.replace(other, "")
            uses_another = any(word in kept for word in row["never"])
            names_it = any(form.search(text) for form in row["found_in"] for text in ids)
            if uses_another or (names_it and not any(word in string for word in row["words"])):
                wrong.append((ids[0], string))
    assert not wrong, "\n".join(f"{english!r}: {chinese!r}" for english, chinese in wrong)


def test_the_forms_find_the_term_and_not_its_other_senses():
    (hand,) = (row for row in glossary() if row["term"] == "hand (one deal)")

    def found(text):
        return any(form.search(text) for form in hand["found_in"])

    assert found("Hand 12 saved.") and found("Hand %(n)s corrected")
    assert found("%(n)s hands") and found("all hands entered")
    assert not found("The winning hand, tile by tile") and not found("Link a player by hand")
