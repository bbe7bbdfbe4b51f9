"""Small problem sets with concept items: one item of each kind for the export tests of issue 21, and the quiz tests' set."""

from __future__ import annotations

from pathlib import Path

# one item of each kind on the chapter's first problem: what the quiz tests answer (tests/quiz, tests/cli)
QUIZ_SET = """\
problems:
  - id: cat-fish
    tokens: [고양이가, 생선을, 먹었다]
    Q: [[2, 1], [1, 2], [1, 3]]
    K: [[1, 0], [0, 2], [1, 1]]
    V: [[1, 0], [0, 1], [1, 1]]
    rows: [먹었다]
    ask: [scores]
concepts:
  - id: why-scale
    stem: "왜 √d로 나누나요? (Why divide by √d?)"
    options:
      - {text: "softmax의 극단화 (softmax's extremes)", right: true}
      - {text: "속도 (speed)", feedback: "속도와는 상관없습니다 (not about speed)"}
      - {text: "합이 1 (sum to 1)", feedback: "합을 1로 만드는 것은 softmax입니다 (softmax does that)"}
    explanation: "극단적 분포를 완화합니다 (it tames the extremes)"
  - {id: eat, kind: computed, problem: cat-fish, row: 먹었다, ask: most-attended, stem: "‘먹었다’는? (Which key?)"}
  - {id: steps, kind: order, stem: "순서 (In order.)", steps: [scores, scale, softmax, mix]}
"""

CONCEPT_SET = """\
title: "Concepts on every sheet"
problems:
  - id: cat-fish
    title: "고양이가 생선을 먹었다"
    tokens: [고양이가, 생선을, 먹었다]
    Q: [[2, 1], [1, 2], [1, 3]]
    K: [[1, 0], [0, 2], [1, 1]]
    V: [[1, 0], [0, 1], [1, 1]]
    rows: [먹었다]
    ask: [weights]
concepts:
  - id: why-scale
    stem: "왜 스코어를 √d로 나누나요? (Why divide the scores by √d?)"
    options:
      - text: "점수가 커지면 softmax가 한 칸에 쏠리므로 (scores grow with d and softmax saturates)"
        right: true
      - text: "계산을 빠르게 하려고 (to compute faster)"
        feedback: "속도와는 상관없습니다 (speed has nothing to do with it)"
      - text: "가중치의 합을 1로 만들려고 (to make the weights sum to 1)"
        feedback: "합이 1이 되는 것은 softmax 덕분입니다 (softmax does that)"
      - text: "음수를 없애려고 (to remove negative numbers)"
        feedback: "나눗셈은 부호를 바꾸지 않습니다 (dividing keeps the sign)"
    explanation: "큰 점수는 softmax를 한 칸에 몰아 기울기를 없앱니다 (large scores saturate softmax)"
  - id: which-sum-to-one
    kind: choice
    several: true
    stem: "합이 1인 것을 모두 고르세요 (Which sum to 1 in each row?)"
    options:
      - text: "어텐션 가중치 (the attention weights)"
        right: true
      - text: "스코어 (the scores)"
        feedback: "스코어는 아무 값이나 됩니다 (scores can be anything)"
      - text: "Softmax의 출력 (the softmax outputs)"
        right: true
      - text: "스케일된 스코어 (the scaled scores)"
        feedback: "나눗셈만으로는 합이 1이 되지 않습니다 (dividing alone does not)"
    explanation: "가중치가 곧 softmax의 출력입니다 (the weights are the softmax outputs)"
  - id: eat-attends
    kind: computed
    problem: cat-fish
    row: 먹었다
    ask: most-attended
    stem: "‘먹었다’는 어느 Key 토큰에 가장 집중하나요? (Which key does 먹었다 attend to most?)"
  - id: steps
    kind: order
    stem: "어텐션 계산의 네 단계를 순서대로 놓으세요 (Put the four steps in order)"
    steps: ["S = Q·Kᵀ", "÷√d", "행마다 softmax (softmax per row)", "가중치로 V를 섞기 (mix V by the weights)"]
    explanation: "점수, 나누기, softmax, 섞기 (scores, divide, softmax, mix)"
"""


def concept_set(directory: Path) -> Path:
    path = directory / "concepts.yaml"
    path.write_text(CONCEPT_SET, encoding="utf-8")
    return path
