"""Author-year labels in the bibliography, the style of the citations in the text.

The text cites "[Hastie et al., 2009]" (``bibtex_reference_style: author_year``), but pybtex's
styles label the list "[HTF09]"; this style labels each entry as the text cites it and sorts the
list by author and year.
"""

from pybtex.plugin import register_plugin
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle


def _who(entry) -> str:
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    last = [" ".join(n.render_as("text") for n in p.rich_last_names) for p in people]
    if not last:
        return entry.fields.get("organization") or entry.fields.get("institution") or entry.key
    if len(last) == 1:
        return last[0]
    if len(last) == 2:
        return f"{last[0]} and {last[1]}"
    return f"{last[0]} et al."


class AuthorYearLabels(BaseLabelStyle):
    def format_labels(self, sorted_entries):
        for entry in sorted_entries:
            yield f"{_who(entry)}, {entry.fields.get('year', 'n.d.')}"


class AuthorYearStyle(UnsrtStyle):
    default_label_style = AuthorYearLabels
    default_sorting_style = "author_year_title"


def setup(app):
    register_plugin("pybtex.style.formatting", "mlnotes_author_year", AuthorYearStyle)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
