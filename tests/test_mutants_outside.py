"""tools/mutants_outside.py reads mutmut's mutants and writes each over the original function."""

from __future__ import annotations

from tools.mutants_outside import NAME, apply, mutants

ORIGINAL = '''"""A module."""


def _f(x):
    return x + 1


class C:
    @property
    def m(self):
        return 2
'''

# what mutmut writes: the original under its trampoline, a copy of it and the mutants beside it
MUTATED = '''"""A module."""


def _f(x):
    return _mutmut_trampoline(x)


def x__f__mutmut_orig(x):
    return x + 1


def x__f__mutmut_1(x):
    return x - 1


class C:
    @property
    def m(self):
        return _mutmut_trampoline(self)

    def xǁCǁm__mutmut_orig(self):
        return 2

    def xǁCǁm__mutmut_1(self):
        return 3
'''


def test_a_mutants_name_gives_its_class_and_function():
    assert NAME.match("x__is_check__mutmut_7").group("cls", "func", "n") == (None, "_is_check", "7")
    assert NAME.match("xǁSourceǁ__init____mutmut_20").group("cls", "func", "n") == ("Source", "__init__", "20")


def test_each_mutant_replaces_its_function_and_only_it():
    found = mutants(MUTATED)
    assert sorted(found) == ["x__f__mutmut_1", "xǁCǁm__mutmut_1"]  # not the copies of the original
    for name, (f, m) in [("x__f__mutmut_1", (0, 2)), ("xǁCǁm__mutmut_1", (2, 3))]:
        namespace: dict = {}
        exec(apply(ORIGINAL, *found[name], name), namespace)  # the decorator stays
        assert (namespace["_f"](1), namespace["C"]().m) == (f, m)
