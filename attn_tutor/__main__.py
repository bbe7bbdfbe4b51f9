"""Where `attn-tutor` and `python -m attn_tutor` start."""

import gc


def run() -> None:
    """Run the command line with the cyclic garbage collector off.

    A run is short, and start-up allocates hundreds of thousands of objects (typer,
    numpy) that the collector scans again and again for cycles that are not there:
    switching it off saves ~8 ms of the ~35 ms `solve` spends beyond its libraries.
    Reference counting still frees everything that is not in a cycle; the one
    command that can run long over many files (`grade`) switches it back on.
    """
    gc.disable()
    from attn_tutor.cli import main

    main()


if __name__ == "__main__":
    run()
