"""The packaged ch13 set: every number the chapter prints and every story a problem tells.

Each claim written in a comment or title of ``problems/ch13.yaml`` is checked here
against the engine, at the precision the chapter (or the comment) writes it.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from helpers.paths import ROOT

from attn_tutor.core.model import Bilingual
from attn_tutor.core.rounding import fmt, fmt_row
from attn_tutor.problems.load import load_path, load_problem_set, validate_path
from attn_tutor.solve import engine

CH13 = ROOT / "problems" / "ch13.yaml"


@pytest.fixture(scope="module")
def ch13():
    return load_path(CH13)


@pytest.fixture(scope="module")
def solved(ch13):
    return {problem.id: engine.solve(problem) for problem in ch13.problems}


def weights_of(solution, token: str, head: int = 0) -> dict[str, float]:
    problem = solution.problem
    row = solution.heads[head].weights[problem.row_index(token)]
    return dict(zip(problem.keys, row.tolist()))


def top(weights: dict[str, float], n: int = 1) -> list[str]:
    return sorted(weights, key=weights.get, reverse=True)[:n]


def output_of(solution, token: str) -> str:
    return fmt_row(solution.output[solution.problem.row_index(token)])


# --------------------------------------------------------------------------- the file itself


def test_the_file_is_valid_and_is_the_packaged_default(ch13):
    assert validate_path(CH13) == []
    packaged = load_problem_set(None)
    assert packaged.ids == ch13.ids == load_problem_set("ch13").ids
    assert packaged.problems == ch13.problems


def test_ids_titles_and_the_required_problems(ch13):
    assert ch13.title == "13장 어텐션 손계산 문제집"
    assert len(set(ch13.ids)) == len(ch13.ids)
    for problem in ch13.problems:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", problem.id), problem.id
        assert problem.title and re.search("[가-힣]", problem.title), problem.id
    assert {"cat-fish", "widget-meet-friend", "river-fishing", "practice-d4", "practice-causal",
            "practice-cross", "practice-projection", "practice-two-heads"} <= set(ch13.ids)


def test_every_given_number_is_hand_friendly(ch13):
    """Small integers or one-decimal numbers: what a student can multiply in their head."""
    for problem in ch13.problems:
        matrices = [problem.X] + [m for head in problem.heads for m in (head.Q, head.K, head.V,
                                                                         head.W_Q, head.W_K, head.W_V)]
        for m in matrices:
            for v in (v for row in (m or ()) for v in row):
                assert abs(v) <= 3 and round(v * 10) == v * 10, (problem.id, v)


def test_every_problem_solves_cleanly(ch13, solved):
    for problem in ch13.problems:
        solution = solved[problem.id]
        for head in solution.heads:
            assert np.all(np.isfinite(head.weights))
            np.testing.assert_allclose(head.weights.sum(axis=1), 1, atol=1e-12)
        assert set(problem.asked_rows) <= set(problem.tokens)


# --------------------------------------------------------------------------- (a) the chapter's example


def test_cat_fish_is_exactly_the_chapters_table_13_1(ch13):
    problem = ch13.get("cat-fish")
    assert problem.tokens == ("고양이가", "생선을", "먹었다")
    (head,) = problem.heads
    assert head.Q == ((2, 1), (1, 2), (1, 3))
    assert head.K == ((1, 0), (0, 2), (1, 1))
    assert head.V == ((1, 0), (0, 1), (1, 1))
    assert problem.divide_by is None and problem.mask == "none" and problem.key_tokens is None
    assert problem.rows == ("먹었다", "고양이가")
    assert problem.decimals == 3 and problem.tolerance == 0.005
    from attn_tutor.marking import tolerance

    assert tolerance.warnings(ch13) == []  # 0.005 fits 3 decimals in every problem of the chapter


def test_cat_fish_scores_table_13_2(solved):
    head = solved["cat-fish"].head
    assert head.scores.tolist() == [[2, 2, 3], [1, 4, 3], [1, 6, 4]]


def test_cat_fish_scaling_by_root_2(solved):
    head = solved["cat-fish"].head
    assert head.d_k == 2 and head.divisor == math.sqrt(2) and fmt(head.divisor) == "1.414"
    assert [fmt(v, 2) for v in head.scaled[2]] == ["0.71", "4.24", "2.83"]


def test_cat_fish_weights_of_the_row_eat(solved):
    weights = weights_of(solved["cat-fish"], "먹었다")
    assert [fmt(w) for w in weights.values()] == ["0.023", "0.786", "0.191"]
    assert top(weights) == ["생선을"]
    assert fmt(100 * weights["생선을"], 1) == "78.6"  # "생선을"의 정보가 78.6% 섞인


def test_cat_fish_outputs(solved):
    solution = solved["cat-fish"]
    assert [fmt_row(row) for row in solution.output] == ["(0.752, 0.752)", "(0.380, 0.926)", "(0.214, 0.977)"]
    eat = solution.output[2]
    assert eat[1] > eat[0]  # 2번째 성분("음식 성분")이 압도적이다


# --------------------------------------------------------------------------- (b) the widget sentence


def test_widget_has_only_q_and_k_and_stops_at_the_weights(ch13, solved):
    problem = ch13.get("widget-meet-friend")
    assert problem.tokens == ("나는", "어제", "학교에서", "친구를", "만났다")
    assert not problem.has_values and problem.stages == ("scores", "scaled", "weights")
    assert solved["widget-meet-friend"].output is None
    assert solved["widget-meet-friend"].head.d_k == 2
    assert problem.rows == ("만났다", "어제")


def test_widget_meet_attends_most_to_friend(solved):
    weights = weights_of(solved["widget-meet-friend"], "만났다")
    assert top(weights) == ["친구를"]
    assert fmt(weights["친구를"]) == "0.641"


def test_widget_yesterday_splits_evenly_between_itself_and_friend(solved):
    weights = weights_of(solved["widget-meet-friend"], "어제")
    assert set(top(weights, 2)) == {"어제", "친구를"}
    assert abs(weights["어제"] - weights["친구를"]) <= 0.05
    assert fmt(weights["어제"]) == "0.461" and fmt(weights["친구를"]) == "0.429"


# --------------------------------------------------------------------------- (c) the blog's sentence


def test_river_attends_most_to_fishing_and_takes_its_water_meaning(ch13, solved):
    problem = ch13.get("river-fishing")
    assert problem.tokens == ("나는", "강가에서", "낚시를", "했다") and problem.has_values
    solution = solved["river-fishing"]
    weights = weights_of(solution, "강가에서")
    assert top(weights) == ["낚시를"] and fmt(weights["낚시를"]) == "0.760"
    assert output_of(solution, "강가에서") == "(1.715, 0.285)"
    water, person = solution.output[problem.row_index("강가에서")]
    assert water > person  # 1번째 성분(물·자연)이 압도적


# --------------------------------------------------------------------------- (d) practice problems


def test_practice_d4_divides_by_two(ch13, solved):
    problem = ch13.get("practice-d4")
    head = solved["practice-d4"].head
    assert len(problem.tokens) == 4 and head.d_k == 4 and head.divisor == 2.0
    assert np.all(head.scores == np.round(head.scores))  # whole-number scores, halves after scaling
    weights = weights_of(solved["practice-d4"], "읽었다")
    assert top(weights) == ["책을"] and fmt(weights["책을"]) == "0.474"


def test_practice_causal_sees_only_itself_and_earlier_tokens(ch13, solved):
    problem = ch13.get("practice-causal")
    assert problem.mask == "causal"
    head = solved["practice-causal"].head
    n = len(problem.tokens)
    for i in range(n):
        for j in range(n):
            if j > i:
                assert head.weights[i, j] == 0 and np.isnan(head.scores[i, j])
    assert head.weights[0].tolist() == [1, 0, 0, 0]
    assert output_of(solved["practice-causal"], "오늘") == "(1.000, 0.000)"
    weights = weights_of(solved["practice-causal"], "먹었다")
    assert top(weights) == ["밥을"] and fmt(weights["밥을"]) == "0.449"


def test_practice_cross_attends_to_the_source_sentence(ch13, solved):
    problem = ch13.get("practice-cross")
    assert problem.key_tokens == ("나는", "생선을", "먹었다") and problem.key_tokens != problem.tokens
    head = solved["practice-cross"].head
    assert head.weights.shape == (4, 3)
    for query, source, shown in (("I", "나는", "0.620"), ("ate", "먹었다", "0.503"), ("fish", "생선을", "0.620")):
        weights = weights_of(solved["practice-cross"], query)
        assert top(weights) == [source] and fmt(weights[source]) == shown, query
    the = weights_of(solved["practice-cross"], "the")
    assert all(w == pytest.approx(1 / 3, abs=1e-15) for w in the.values())  # 짝이 없어 1/3씩


def test_practice_projection_rebuilds_table_13_1(ch13, solved):
    problem = ch13.get("practice-projection")
    assert problem.X is not None and problem.heads[0].projected
    head = solved["practice-projection"].head
    chapter = ch13.get("cat-fish").heads[0]
    assert head.Q.tolist() == [list(r) for r in chapter.Q]
    assert head.K.tolist() == [list(r) for r in chapter.K]
    assert head.V.tolist() == [list(r) for r in chapter.V]
    np.testing.assert_array_equal(solved["practice-projection"].output, solved["cat-fish"].output)


def test_practice_two_heads_object_and_subject(ch13, solved):
    problem = ch13.get("practice-two-heads")
    assert problem.multi_head and len(problem.heads) == 2
    assert problem.heads[0] == ch13.get("cat-fish").heads[0]
    solution = solved["practice-two-heads"]
    object_view = weights_of(solution, "먹었다", head=0)
    subject_view = weights_of(solution, "먹었다", head=1)
    assert top(object_view) == ["생선을"] and fmt(object_view["생선을"]) == "0.786"
    assert top(subject_view) == ["고양이가"] and fmt(subject_view["고양이가"]) == "0.768"
    assert solution.output.shape == (3, 4)
    assert output_of(solution, "먹었다") == "(0.214, 0.977, 0.955, 0.232)"


# --------------------------------------------------------------------------- the concept items


def test_the_chapters_concept_items_cover_its_why_questions(ch13):
    concepts = {c.id: c for c in ch13.concepts}
    assert len(concepts) >= 12
    kinds = [c.kind for c in concepts.values()]
    assert kinds.count("computed") >= 2 and kinds.count("order") >= 1
    for topic in ("qkv-query", "why-scale", "why-not-rnn", "bank-two-sentences", "why-positional", "why-multi-head"):
        assert concepts[topic].kind == "choice"
    for concept in concepts.values():  # every text in both languages, marked: each language shows its own
        texts = [concept.stem, *concept.steps, *(t for o in concept.options for t in (o.text, o.feedback) if t is not None)]
        texts += [concept.explanation] if concept.explanation is not None else []
        for text in texts:
            assert isinstance(text, Bilingual), (concept.id, text)
            assert re.search("[가-힣]", text.ko) and re.search("[A-Za-z]{3}", text.en), (concept.id, text)
            assert not re.search(r"\([A-Z][^)]*[?.]\)$", text.ko), (concept.id, text.ko)  # no English left in the Korean
        assert concept.stem.en.rstrip().endswith("?") or concept.kind == "order", concept.id
        for option in concept.options:
            assert option.right or option.feedback is not None, concept.id


def test_the_computed_items_agree_with_the_chapters_numbers(ch13, solved):
    from attn_tutor.solve.concepts import show

    def answer(concept_id):
        shown = show(ch13.concept(concept_id), ch13)
        return shown.options[shown.labels.index(shown.answer[0])]

    assert answer("eat-attends") == top(weights_of(solved["cat-fish"], "먹었다"))[0] == "생선을"
    assert answer("meet-attends") == top(weights_of(solved["widget-meet-friend"], "만났다"))[0] == "친구를"
    assert "sharper" in answer("unscaled-eat")
