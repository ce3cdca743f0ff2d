"""The feedback file a student reads: per question the score, what failed and why.

Threat: text that came from the submission (its errors, the values its functions returned, as a
failing assertion prints them) would otherwise be Markdown in a file the student trusts, where it
can forge a heading or a "Score: 12 / 12" line, or bury the feedback in megabytes. Every such text
goes in a fenced block whose fence is longer than any run of backticks inside it, with control
characters escaped and its length capped (:func:`quoted`). Hidden cases report the property they
check, never their inputs or the submission's output on them.
"""

from __future__ import annotations

import re

from .submissions import printable

MAX_QUOTE_CHARS = 1500
MAX_QUOTE_LINES = 30


def _clean(text: str) -> str:
    return "\n".join(printable(line) for line in str(text).split("\n"))


def quoted(text: str) -> list[str]:
    """``text`` (from the submission) as a fenced Markdown block, capped, escaped."""
    text = _clean(text)
    lines = text.split("\n")
    if len(lines) > MAX_QUOTE_LINES or len(text) > MAX_QUOTE_CHARS:
        text = "\n".join(lines[:MAX_QUOTE_LINES])[:MAX_QUOTE_CHARS] + "\n[... cut]"
    fence = "`" * max(3, 1 + max((len(r) for r in re.findall(r"`+", text)), default=0))
    return ["", fence + "text", text, fence, ""]


def inline(text: str) -> str:
    """``text`` (from the submission) as inline code."""
    text = printable(str(text))[:200]
    fence = "`" * (1 + max((len(r) for r in re.findall(r"`+", text)), default=0))
    return f"{fence} {text} {fence}"


def feedback_text(submission: str, assignment: str, result: dict, points: dict[str, float]) -> str:
    """The student's feedback: per question the score, each visible case (with what was expected
    and what came back), and each hidden case's property and whether it held."""
    questions = result.get("questions", {})
    total = sum(q["score"] for q in questions.values())
    lines = [f"# {assignment}: feedback on {inline(submission)}", "",
             f"Score: {total:g} / {sum(points.values()):g}", "", f"Status: {result['status']}", ""]
    if result.get("chapter_error"):
        kind, message = result["chapter_error"]
        lines += ["The chapter's imports failed in the grader's sandbox:", *quoted(f"{kind}: {message}")]
    for name, possible in points.items():
        q = questions.get(name)
        lines += [f"## {name}: {q['score'] if q else 0:g} / {possible:g}", ""]
        if q is None:
            lines += ["- not graded (see the status above)", ""]
            continue
        if q["status"] != "graded":
            lines += [f"- {q['status']}"]
        if q.get("error"):
            kind, message = q["error"]
            lines += ["- your answer cell raised an error:", *quoted(f"{kind}: {message}")]
        visible = [c for c in q["cases"] if not c["hidden"]]
        hidden = [c for c in q["cases"] if c["hidden"]]
        for k, case in enumerate(visible, 1):
            lines.append(f"- visible test {k}: {'passed' if case['passed'] else 'failed'}")
            if not case["passed"]:
                lines += quoted(case["message"])
        for k, case in enumerate(hidden, 1):
            what = f" ({case['property']})" if case.get("property") else ""
            lines.append(f"- hidden test {k}{what}: {'passed' if case['passed'] else 'failed'}")
        lines.append("")
    return "\n".join(lines)
