"""Where `attn-tutor` and `python -m attn_tutor` start."""


def run() -> None:
    """Run the command line.

    (It once switched the cyclic garbage collector off for a quicker start;
    ``benchmarks/startup.py --tricks`` found no gain beyond the run-to-run spread,
    so it no longer does.)
    """
    from attn_tutor.cli import main

    main()


if __name__ == "__main__":
    run()
