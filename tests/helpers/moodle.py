"""A Moodle XML question file read back as Moodle reads it: its Cloze blanks, and what a browser shows.

The Cloze rules are those of Moodle's question/type/multianswer source
(``qtype_multianswer_extract_question``): a blank is ``{n:TYPE:alternatives}``,
alternatives are split at ``~``, an alternative is ``=`` or ``%fraction%``, an
answer up to ``#`` (not after ``\\`` or ``&``), then feedback up to ``~`` or ``}``
(not after ``\\``); a numerical answer is ``value:tolerance``. The regular
expressions are Moodle's, with PHP's variable-width look-behind split into
fixed-width ones.

Feedback is then decoded exactly once, as Moodle does it::

    $feedback = html_entity_decode($altregs[ANSWER_ALTERNATIVE_REGEX_FEEDBACK], ENT_QUOTES, 'UTF-8');
    $feedback = str_replace('\\}', '}', $feedback);
    ... str_replace('\\#', '#', $feedback);

and stored as HTML (``FORMAT_HTML``): what a student reads is that HTML as a browser
shows it (:func:`shown`). :func:`html_entity_decode` is PHP's, not Python's
``html.unescape``, which also decodes references without their ``;`` (``&amp``,
``&copy``) and HTML5 names that PHP's HTML 4.01 table does not know (``&apos;``).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.entities import name2codepoint
from html.parser import HTMLParser

FRACTION = r"=|%(-?[0-9]+(?:[.,][0-9]*)?)%"
ANSWER = r".+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$)"
FEEDBACK = r".*?(?<!\\)(?=[~}]|$)"
ALTERNATIVE = f"({FRACTION})?({ANSWER})(#({FEEDBACK}))?"
NUMBER = r"-?(([0-9]+[.,]?[0-9]*|[.,][0-9]+)([eE][-+]?[0-9]+)?)"
NUMERICAL = f"^({NUMBER})(:{NUMBER})?$"
TYPES = (
    r"(NUMERICAL|NM)|(MULTICHOICE|MC)|(MULTICHOICE_V|MCV)|(MULTICHOICE_H|MCH)|(SHORTANSWER|SA|MW)|"
    r"(SHORTANSWER_C|SAC|MWC)|(MULTICHOICE_S|MCS)|(MULTICHOICE_VS|MCVS)|(MULTICHOICE_HS|MCHS)|"
    r"(MULTIRESPONSE|MR)|(MULTIRESPONSE_H|MRH)|(MULTIRESPONSE_S|MRS)|(MULTIRESPONSE_HS|MRHS)"
)
BLANK = re.compile(r"\{([0-9]*):(" + TYPES + r"):(" + ALTERNATIVE + "(~" + ALTERNATIVE + r")*)\}", re.S)
NUMERICAL_GROUP, MULTICHOICE_GROUP, ALTERNATIVES_GROUP = 3, 4, 16

_REFERENCE = re.compile(r"&(?:#([0-9]+)|#[xX]([0-9a-fA-F]+)|([A-Za-z][A-Za-z0-9]*));")


def _allowed(code: int) -> bool:
    """A code point PHP's HTML 4.01 decoding turns a numeric reference into (others are left as written)."""
    return (
        0x20 <= code <= 0x7E
        or code in (0x09, 0x0A, 0x0D)
        or 0xA0 <= code <= 0xD7FF
        or (0xE000 <= code <= 0x10FFFF and (code & 0xFFFF) < 0xFFFE and not 0xFDD0 <= code <= 0xFDEF)
    )


def html_entity_decode(text: str) -> str:
    """PHP's ``html_entity_decode($text, ENT_QUOTES, 'UTF-8')``: one layer of references, each ended by ``;``."""

    def one(match: re.Match) -> str:
        decimal, hexadecimal, name = match.groups()
        if name is not None:
            code = name2codepoint.get(name)  # the HTML 4.01 entities (no &apos;: ENT_QUOTES decodes &#039;)
            return match.group(0) if code is None else chr(code)
        code = int(decimal) if decimal is not None else int(hexadecimal, 16)
        return chr(code) if _allowed(code) else match.group(0)

    return _REFERENCE.sub(one, text)


def parse_cloze(text: str, *, choices: bool = False) -> tuple[list[dict], str]:
    """Moodle's extraction loop: every blank in order (feedback as Moodle stores it), and the text
    left with ``{#n}`` placeholders. Every blank must be NUMERICAL, or with ``choices`` MULTICHOICE
    too (``"type": "MULTICHOICE"``, each alternative's ``text`` the answer as Moodle stores it: HTML)."""
    blanks = []
    position = 1
    while (match := BLANK.search(text)) is not None:
        if choices and match.group(MULTICHOICE_GROUP):
            blanks.append({"norm": match.group(1), "type": "MULTICHOICE", "alternatives": _choices(match.group(ALTERNATIVES_GROUP))})
            text = text[: match.start()] + "{#" + str(position) + "}" + text[match.end() :]
            position += 1
            continue
        assert match.group(NUMERICAL_GROUP), f"not a NUMERICAL blank: {match.group(0)[:60]}"
        alternatives = []
        remaining = match.group(ALTERNATIVES_GROUP)
        while (alt := re.match("~?" + ALTERNATIVE, remaining, re.S)) is not None and alt.group(0):
            fraction = 1.0 if alt.group(1) == "=" else float(alt.group(2).replace(",", ".")) / 100 if alt.group(2) else 0.0
            feedback = None
            if alt.group(5) is not None:
                feedback = html_entity_decode(alt.group(5)).replace("\\}", "}").replace("\\#", "#")
            number = re.match(NUMERICAL, alt.group(3), re.S)
            assert number is not None, f"not a number: {alt.group(3)!r}"
            tolerance = float(number.group(6)) if number.group(5) else 0.0
            alternatives.append(
                {"fraction": fraction, "value": float(number.group(1)), "tolerance": tolerance, "feedback": feedback}
            )
            remaining = remaining[len(alt.group(0)) :]
        assert remaining == "", f"unparsed alternatives: {remaining[:60]!r}"
        blanks.append({"norm": match.group(1), "alternatives": alternatives})
        text = text[: match.start()] + "{#" + str(position) + "}" + text[match.end() :]
        position += 1
    return blanks, text


def _choices(remaining: str) -> list[dict]:
    """A MULTICHOICE blank's alternatives: fraction, answer text (HTML), feedback (decoded once)."""
    found = []
    while (alt := re.match("~?" + ALTERNATIVE, remaining, re.S)) is not None and alt.group(0):
        fraction = 1.0 if alt.group(1) == "=" else float(alt.group(2).replace(",", ".")) / 100 if alt.group(2) else 0.0
        feedback = None
        if alt.group(5) is not None:
            feedback = html_entity_decode(alt.group(5)).replace("\\}", "}").replace("\\#", "#")
        found.append({"fraction": fraction, "text": alt.group(3), "feedback": feedback})
        remaining = remaining[len(alt.group(0)) :]
    assert remaining == "", f"unparsed alternatives: {remaining[:60]!r}"
    return found


class TextOf(HTMLParser):
    """The text a browser shows for an HTML fragment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def shown(fragment: str) -> str:
    """What a browser shows of an HTML fragment: its text, references decoded, tags gone."""
    parser = TextOf()
    parser.feed(fragment)
    parser.close()
    return "".join(parser.parts)


_PLAIN_HTML = re.compile(r"(?:[^&<>]|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);)*")


def is_plain_html(fragment: str) -> bool:
    """HTML that is only text: no tag, no ``>``, and every ``&`` the start of a whole reference."""
    return _PLAIN_HTML.fullmatch(fragment) is not None


def moodle_questions(data: bytes) -> list[tuple[str, ET.Element]]:
    """(category, question element) for each cloze question of a Moodle XML file, in file order
    (a set's concept items are multichoice questions, in categories of their own: left out)."""
    root = ET.fromstring(data)
    assert root.tag == "quiz"
    category, found = None, []
    for question in root.findall("question"):
        if question.get("type") == "category":
            category = question.findtext("category/text")
        elif question.get("type") != "multichoice":
            assert question.get("type") == "cloze"
            found.append((category, question))
    return found


def numerical_accepts(answer: str, tolerance: str, typed: str) -> bool:
    """Whether Moodle marks ``typed`` right for a NUMERICAL alternative ``answer:tolerance``, in
    every Moodle release: ``qtype_numerical_answer::get_tolerance_interval``
    (question/type/numerical/question.php), with the tolerance type every Cloze blank gets (2,
    nominal) and PHP's default ``precision`` of 14, has widened the range by a slack that changed
    between releases; the narrowest of them is taken::

        $tolerance = $this->tolerance + pow(10, -1 * ini_get('precision')) * min(1, abs($this->answer));     // older
        $tolerance = $this->tolerance + pow(10, -1 * ini_get('precision')) * max(1, abs($this->answer));     // later
        $tolerance = $this->tolerance + $epsilon * max(abs($this->tolerance), abs($this->answer), $epsilon); // current
        return array($this->answer - $tolerance, $this->answer + $tolerance);
        ...
        return $min <= $value && $value <= $max;

    PHP reads the strings as doubles, as Python's ``float`` does.
    """
    value, centre, tol = float(typed), float(answer), abs(float(tolerance))
    epsilon = 10.0**-14
    slack = epsilon * min(min(1.0, abs(centre)), max(1.0, abs(centre)), max(tol, abs(centre), epsilon))
    width = tol + slack
    return centre - width <= value <= centre + width


def split_category_path(path: str) -> list[str]:
    """Moodle's ``qformat_default::split_category_path`` (question/format.php): split at every ``/``
    that has no ``/`` on either side, then each name trimmed (PHP's ``trim``) and ``//`` read as ``/``::

        $rawnames = preg_split('~(?<!/)/(?!/)~', $path);
        foreach ($rawnames as $rawname) {
            $names[] = clean_param(trim(str_replace('//', '/', $rawname)), PARAM_TEXT);
        }

    (``clean_param(PARAM_TEXT)`` strips HTML tags, which the tests' names do not hold.)"""
    return [raw.replace("//", "/").strip(" \t\n\r\0\x0b") for raw in re.split(r"(?<!/)/(?!/)", path)]


_TAG = re.compile(r"<!--.*?(?:-->|$)|<(?=[^\s<])[^>]*(?:>|$)", re.S)


def strip_tags(text: str) -> str:
    """PHP's ``strip_tags`` as ``clean_param($name, PARAM_TEXT)`` applies it to a category name: a
    ``<`` followed by anything but white space opens a tag that runs to the next ``>`` (or the end),
    comments included; a ``<`` before a space stays."""
    return _TAG.sub("", text)


def category_names(path: str) -> list[str]:
    """The category names of a path as a Moodle teacher reads them: split and trimmed as
    :func:`split_category_path` does, cleaned by ``clean_param(PARAM_TEXT)`` (tags stripped), then
    shown by ``format_string`` as HTML (references read as the characters)."""
    return [shown(strip_tags(name)) for name in split_category_path(path)]
