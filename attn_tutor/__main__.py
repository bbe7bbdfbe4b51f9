"""Where `attn-tutor` and `python -m attn_tutor` start."""

import os

# numpy's OpenBLAS starts a thread for every CPU as numpy is imported, and each spins for a while
# before it sleeps: about 0.13 s of CPU a start on two CPUs (measured: `python -c "import numpy,
# yaml"` 0.30 s of CPU, 0.17 s with one thread), for no gain here, where every product is of a
# hand-sized matrix. So one thread, unless the user asked for more. Set before numpy is imported
# (cli.app imports no numpy), and inherited by the grade workers and anything else started.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from attn_tutor.cli.app import main  # noqa: E402 - after the setting above


def run() -> None:
    """Run the command line."""
    main()


if __name__ == "__main__":
    run()
