"""attn-tutor: a tutor and grader for scaled dot-product attention by hand."""

__version__ = "0.1.0"
__all__ = ["__version__"]
