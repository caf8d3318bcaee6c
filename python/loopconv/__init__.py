"""The loopconv binary, installed by this wheel: `find_loopconv_bin()` says where."""

from loopconv._find_bin import find_loopconv_bin

__all__ = ["find_loopconv_bin"]
