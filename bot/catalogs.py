"""The catalogs checked against each other: every key in every language, with the same
placeholders and every plural form (the tests run it over the shipped catalogs; it also tells
a translator what a new catalog still lacks)."""

from __future__ import annotations

import string

from babel.messages.catalog import Catalog

__all__ = ["catalog_problems", "placeholders"]


def placeholders(template: str) -> frozenset[str]:
    """The argument names a str.format template uses ('{name.attr}' -> 'name')."""
    names = set()
    for _, field, _, _ in string.Formatter().parse(template):
        if field is not None:
            names.add(field.split(".")[0].split("[")[0])
    return frozenset(names)


def catalog_problems(catalogs: dict[str, Catalog]) -> list[str]:
    """Everything that keeps the catalogs from matching: missing or extra keys, empty texts,
    plural forms missing, placeholders that differ or do not parse. Empty when all is well."""
    problems: list[str] = []
    shapes: dict[str, dict[str, tuple[bool, frozenset[str]]]] = {}
    for lang, catalog in catalogs.items():
        shape: dict[str, tuple[bool, frozenset[str]]] = {}
        for message in catalog:
            if not message.id:
                continue
            is_plural = isinstance(message.id, tuple | list)
            key = str(message.id[0] if is_plural else message.id)
            raw = message.string
            forms = [str(f) for f in raw] if isinstance(raw, tuple | list) else [raw or ""]
            if is_plural and len(forms) != catalog.num_plurals:
                problems.append(f"{lang}: {key} has {len(forms)} forms, "
                                f"the language has {catalog.num_plurals}")
            if message.fuzzy or not all(forms):
                problems.append(f"{lang}: {key} has an empty or fuzzy text")
            try:
                names = [placeholders(str(f)) for f in forms]
            except ValueError as e:
                problems.append(f"{lang}: {key} is not a valid format string: {e}")
                shape[key] = (is_plural, frozenset())
                continue
            used = frozenset().union(*names) - ({"n"} if is_plural else set())
            for form, form_names in enumerate(names):
                if used - form_names:
                    problems.append(f"{lang}: {key} form {form} lacks {sorted(used - form_names)}")
            shape[key] = (is_plural, used)
        shapes[lang] = shape
    all_keys = set().union(*(s.keys() for s in shapes.values()))
    for key in sorted(all_keys):
        seen = {lang: shape[key] for lang, shape in shapes.items() if key in shape}
        for lang in shapes:
            if lang not in seen:
                problems.append(f"{lang}: {key} is missing")
        if len(set(seen.values())) > 1:
            problems.append(f"{key} differs between languages: {seen}")
    return problems
