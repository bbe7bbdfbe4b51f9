"""Where `attn-tutor` and `python -m attn_tutor` start."""

from attn_tutor.cli.app import main


def run() -> None:
    """Run the command line."""
    main()


if __name__ == "__main__":
    run()
