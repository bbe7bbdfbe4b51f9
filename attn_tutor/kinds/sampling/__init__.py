"""``kind: sampling``: the next token from a language model's scores (the book's Ch14) —
temperature, e^x, the probabilities, top-k or top-p, the token picked, and the loss −ln p.

May import: see :mod:`attn_tutor.kinds` (each module on its job's level).
"""
