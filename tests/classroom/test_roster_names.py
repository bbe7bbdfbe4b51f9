"""Roster names match exactly as written, whatever characters they hold (issue 35, rule 9): a
property over random names (every character class a name may hold: letters of any script, digits,
``@``, ``#``, punctuation), and the red team's cases."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from attn_tutor.classroom.roster import match
from attn_tutor.classroom.roster_file import Index, Roster, RosterEntry, fold

WORD = st.text(
    alphabet=st.one_of(
        st.characters(categories=("Lu", "Ll", "Lo", "Nd")),  # letters of any script, digits of any script
        st.sampled_from("@#.'-_0123456789+&!"),
    ),
    min_size=1,
    max_size=8,
)
NAME = st.one_of(
    st.builds(lambda last, first: f"{last}, {first}", WORD, WORD),  # Canvas: "Last, First"
    st.builds(lambda first, last: f"{first} {last}", WORD, WORD),
    WORD,
)


def roster_of(names: list[str]) -> Roster:
    entries = [RosterEntry(line=n + 2, name=name, ids=(("ID", f"id-{n:03}-x"),)) for n, name in enumerate(names)]
    return Roster("canvas", "r.csv", ["Student", "ID"], entries)


@settings(max_examples=300, deadline=None)
@given(names=st.lists(NAME, min_size=1, max_size=5), pick=st.integers(min_value=0, max_value=4))
def test_a_student_written_as_a_roster_name_is_matched_to_that_entry(names, pick):
    roster = roster_of(names)
    written = names[pick % len(names)]
    assume(fold(written))
    index = Index(roster.entries)
    assume(len(index.named(written)) == 1)  # no other entry has that name in another order
    assume(not index.identifier(fold(written)))  # nor is the name someone's identifier
    matching = match([written], roster)
    assert [m.entry.name for m in matching.matches] == [written], matching.unmatched


@pytest.mark.parametrize(
    "names, written, entry",
    [
        (["@Cho, Bo", "Kim, Minji"], "@Cho, Bo", "@Cho, Bo"),
        (["Stu5, Name5", "Stu6, Name6"], "Stu5, Name5", "Stu5, Name5"),
        (["Stu5, Name5", "Stu6, Name6"], "Name6 Stu6", "Stu6, Name6"),
        (["김민지2023"], "김민지2023", "김민지2023"),
        (["A1b2 C3d4"], "C3d4, A1b2", "A1b2 C3d4"),
    ],
)
def test_the_red_teams_names_are_matched_as_written(names, written, entry):
    matching = match([written], roster_of(names))
    assert [m.entry.name for m in matching.matches] == [entry]


def test_a_name_as_written_with_an_identifier_of_another_student_is_still_a_conflict():
    roster = Roster("canvas", "r.csv", ["Student", "ID"], [
        RosterEntry(2, "Kim, Minji", ids=(("SIS User ID", "20231234"),)),
        RosterEntry(3, "Park, Seojun", ids=(("SIS User ID", "20231235"),)),
    ])  # fmt: skip
    matching = match(["Kim Minji 20231235"], roster)
    assert not matching.matches and matching.unmatched[0].reason == "conflict"
