"""The sandbox a chat template runs in: Jinja2's, as transformers sets it up, plus bounds.

transformers renders chat templates in Jinja2's ImmutableSandboxedEnvironment with
`trim_blocks`, `lstrip_blocks`, the loop controls and its helpers (`raise_exception`,
`tojson` without HTML escaping, `strftime_now`, a `dict` and `namespace` without
attribute tricks); so does `render_chat_template` here.

A template is user input, so rendering is also bounded (transformers does not bound
it): at most MAX_STEPS template lines run (a trace function counts them), MAX_DEPTH
nested macro calls, MAX_CHARS characters or items in any string or list the template
builds (`*`, `+`, `~`, `%`, `**`, widths of str methods, format strings and filters are
checked before they build) and in the output. Whatever stops a template (those
bounds, a `raise_exception`, a syntax error, an undefined call) is one SubwordLabError
naming the template and its line. Jinja2 is optional: `pip install "subword-lab[chat]"`.
"""
from __future__ import annotations

import json
import re
import sys
from datetime import datetime
from functools import lru_cache

from .core.errors import SubwordLabError

__all__ = ["render_chat_template", "MAX_STEPS", "MAX_DEPTH", "MAX_CHARS"]

MAX_STEPS = 2_000_000   # template lines run in one rendering
MAX_DEPTH = 64          # nested macro calls
MAX_CHARS = 4_000_000   # characters (or items) in one value, and in the output

_FILENAME = "<chat template>"   # the code Jinja compiles from a template carries this name
_WIDENING = frozenset({"ljust", "rjust", "center", "zfill", "expandtabs"})
_FORMATTING = frozenset({"format", "format_map"})


class _Stopped(Exception):
    """Raised inside a template's frame when it goes past a bound; `code_line` is the
    line of the compiled template to blame when the traceback cannot tell."""

    def __init__(self, message, code_line=None):
        super().__init__(message)
        self.code_line = code_line


def _template_line(frame):
    """The line of the nearest template frame at or above `frame`, in compiled code."""
    while frame is not None and frame.f_code.co_filename != _FILENAME:
        frame = frame.f_back
    return None if frame is None else frame.f_lineno


def _jinja():
    try:
        import jinja2  # an optional dependency
        import jinja2.ext
        import jinja2.sandbox
    except ImportError:
        raise SubwordLabError("chat templates need Jinja2, which is not installed; install it "
                              "with: pip install \"subword-lab[chat]\"", field="chat_template") from None
    return jinja2


# -- size checks --------------------------------------------------------------------

def _too_big(size, what):
    if size > MAX_CHARS:
        raise _Stopped(f"{what} would hold {size:,} characters or items, over the limit of "
                       f"{MAX_CHARS:,}")


def _length(value):
    return len(value) if isinstance(value, (str, list, tuple)) else 0


def _check_widths(values, what):
    """Format strings and widths: any number past MAX_CHARS is a width too big to build."""
    for value in values:
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            _too_big(value, what)
        elif isinstance(value, str):
            digits = 0
            for ch in value:
                digits = digits * 10 + ord(ch) - 48 if "0" <= ch <= "9" else 0
                _too_big(digits, what)


def _check_format(fmt, args, kwargs, what):
    """A format string's own widths; and when it takes widths from its arguments ("%*d",
    "{:{}}"), every integer argument, as each may be a width."""
    _check_widths([fmt], what)
    if "*" in fmt or re.search(r"\{[^{}]*:[^{}]*\{", fmt):
        values = [*args, *kwargs.values()]
        values += [v for a in args if isinstance(a, dict) for v in a.values()]
        _check_widths([v for v in values if isinstance(v, int)], what)


def _binop_size(op, left, right):
    if op == "*":
        for seq, count in ((left, right), (right, left)):
            if isinstance(seq, (str, list, tuple)) and isinstance(count, int):
                _too_big(len(seq) * max(count, 0), "a repeated string or list")
    elif op == "+":
        _too_big(_length(left) + _length(right), "a joined string or list")
    elif op == "%" and isinstance(left, str):
        args = right if isinstance(right, tuple) else (right,)
        _check_format(left, args, right if isinstance(right, dict) else {}, "a %-formatted string")
    elif op == "**" and isinstance(left, int) and isinstance(right, int):
        if right > 0 and abs(left) > 1 and right * max(abs(left).bit_length(), 1) > 4 * MAX_CHARS:
            _too_big(MAX_CHARS + 1, "a power")


def _join_size(parts, sep=""):
    parts = list(parts)
    _too_big(sum(len(p) if isinstance(p, str) else 32 for p in parts) + len(sep) * len(parts),
             "a joined string")
    return parts


# -- the environment ----------------------------------------------------------------

@lru_cache(maxsize=1)
def _environment():
    jinja2 = _jinja()
    from jinja2.compiler import CodeGenerator
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class BoundedCodeGenerator(CodeGenerator):
        # `a ~ b` compiles to a join of its parts; send it through a size check.
        def visit_Concat(self, node, frame):
            self.write("environment.bounded_concat((")
            for arg in node.nodes:
                self.visit(arg, frame)
                self.write(", ")
            self.write("))")

    class ChatEnvironment(ImmutableSandboxedEnvironment):
        code_generator_class = BoundedCodeGenerator
        intercepted_binops = frozenset({"*", "+", "%", "**"})

        def call_binop(self, context, operator, left, right):
            _binop_size(operator, left, right)
            return super().call_binop(context, operator, left, right)

        def call(__self, __context, __obj, *args, **kwargs):  # Jinja's signature
            name = getattr(__obj, "__name__", "")
            if isinstance(getattr(__obj, "__self__", None), str):
                if name in _WIDENING:
                    _check_widths(args[:1], f"str.{name}")
                elif name == "join" and args:
                    args = (_join_size(args[0], __obj.__self__),) + args[1:]
                elif name == "replace" and len(args) >= 2 and isinstance(args[1], str):
                    text = __obj.__self__
                    _too_big(len(text) + (len(text) + 1) * len(args[1]), "str.replace")
            return super().call(__context, __obj, *args, **kwargs)

        def wrap_str_format(self, value):
            wrapped = super().wrap_str_format(value)
            if wrapped is None:
                return None
            fmt = value.__self__

            def checked(*args, **kwargs):
                _check_format(fmt, args, kwargs, "a formatted string")
                return wrapped(*args, **kwargs)
            return checked

        def bounded_concat(self, parts):
            return "".join(str(p) for p in _join_size(parts))

    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(value, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        # Not Jinja's own tojson: that one escapes <, >, & and ' for HTML.
        text = json.dumps(value, ensure_ascii=ensure_ascii, indent=indent,
                          separators=separators, sort_keys=sort_keys)
        _too_big(len(text), "tojson's text")
        return text

    def strftime_now(fmt):
        return datetime.now().strftime(fmt)

    class TemplateDict:  # `dict(...)` and `dict.fromkeys(...)`, nothing else of the type
        def __call__(self, *args, **kwargs):
            return dict(*args, **kwargs)

        def fromkeys(self, *args, **kwargs):
            return dict.fromkeys(*args, **kwargs)

    class TemplateNamespace(jinja2.utils.Namespace):  # no underscore names on a namespace
        def __init__(*args, **kwargs):
            self, args = args[0], args[1:]
            attrs = dict(*args, **kwargs)
            for key in attrs:
                TemplateNamespace.check(key)
            jinja2.utils.Namespace.__init__(self, attrs)

        def __setitem__(self, key, value):
            TemplateNamespace.check(key)
            jinja2.utils.Namespace.__setitem__(self, key, value)

        @staticmethod
        def check(key):
            if isinstance(key, str) and key.startswith("_"):
                raise jinja2.exceptions.SecurityError(
                    f"a namespace cannot hold the underscore name {key!r}")

    env = ChatEnvironment(trim_blocks=True, lstrip_blocks=True,
                          extensions=[jinja2.ext.loopcontrols])
    filters = env.filters
    for name in ("center", "indent", "wordwrap", "truncate"):
        filters[name] = _checked(filters[name], _widths_check(f"the {name} filter"))
    filters["format"] = _checked(filters["format"], lambda v, *a, **k: _check_format(
        str(v), a, k, "the format filter"))
    filters["join"] = _checked_join(filters["join"])
    filters["replace"] = _checked(filters["replace"], _replace_check)
    filters["tojson"] = tojson
    lipsum = env.globals["lipsum"]  # Jinja's default: n paragraphs of up to `max` words
    env.globals["lipsum"] = _checked(lipsum, lambda n=5, html=True, min=20, max=100: _too_big(
        n * max * 12, "lipsum's text"))
    env.globals.update(raise_exception=raise_exception, strftime_now=strftime_now,
                       dict=TemplateDict(), namespace=TemplateNamespace)
    return env


def _checked(function, check):
    def run(*args, **kwargs):
        check(*args, **kwargs)
        return function(*args, **kwargs)
    for attr in ("jinja_pass_arg",):  # keep Jinja's pass_context / pass_eval_context mark
        if hasattr(function, attr):
            setattr(run, attr, getattr(function, attr))
    return run


def _widths_check(what):
    def check(*args, **kwargs):
        _check_widths([v for v in (*args, *kwargs.values()) if isinstance(v, int)], what)
    return check


def _replace_check(eval_ctx, value, old="", new="", *args, **kwargs):
    text = str(value)
    _too_big(len(text) + (len(text) + 1) * len(str(new)), "the replace filter")


def _checked_join(function):
    def run(*args, **kwargs):  # join(eval_ctx, value, d="", attribute=None)
        args = list(args)
        if len(args) >= 2 and not isinstance(args[1], str):
            args[1] = _join_size(args[1])
        return function(*args, **kwargs)
    run.jinja_pass_arg = function.jinja_pass_arg
    return run


# -- running a template within bounds -----------------------------------------------

class _Budget:
    """A trace function that counts the lines a template runs and how deep its calls go."""

    def __init__(self):
        self.steps = 0
        self.depth = 0

    def global_trace(self, frame, event, arg):
        if frame.f_code.co_filename != _FILENAME:
            return None
        self.depth += 1
        if self.depth > MAX_DEPTH:  # blame the call, not the macro's first line
            raise _Stopped(f"macro calls nest deeper than {MAX_DEPTH} (a recursion that does "
                           "not end?)", _template_line(frame.f_back))
        return self.local_trace

    def local_trace(self, frame, event, arg):
        if event == "line":
            self.steps += 1
            if self.steps > MAX_STEPS:
                raise _Stopped(f"the template ran more than {MAX_STEPS:,} steps (a loop that "
                               "does not end, or too much work)")
        elif event == "return":
            self.depth -= 1
        return self.local_trace


@lru_cache(maxsize=32)
def _compile(source):
    env = _environment()
    code = env.compile(source, filename=_FILENAME)
    return env.template_class.from_code(env, code, env.make_globals(None))


def _error(exc, template_name, what, template):
    """One SubwordLabError naming the template, the line and what went wrong."""
    jinja2 = _jinja()
    line = getattr(exc, "lineno", None) if isinstance(exc, jinja2.TemplateSyntaxError) else None
    tb = exc.__traceback__
    while tb is not None:  # Jinja rewrites the traceback: template frames carry its lines
        if tb.tb_frame.f_code.co_filename == _FILENAME:
            line = tb.tb_lineno
        tb = tb.tb_next
    if getattr(exc, "code_line", None) and template is not None:
        line = template.get_corresponding_lineno(exc.code_line)
    where = f"line {line}" if line else "chat_template"
    if isinstance(exc, jinja2.TemplateSyntaxError):
        reason = f"the template does not parse: {exc.message}"
    elif isinstance(exc, _Stopped):
        reason = f"rendering stopped: {exc}"
    elif isinstance(exc, jinja2.exceptions.SecurityError):
        reason = f"the sandbox refused: {exc}"
    elif isinstance(exc, RecursionError):
        reason = "rendering stopped: calls nest too deep"
    elif isinstance(exc, MemoryError):
        reason = "rendering stopped: out of memory"
    elif isinstance(exc, jinja2.TemplateError):
        reason = f"the template raised an error: {exc}"
    else:
        reason = f"{what} failed: {type(exc).__name__}: {exc}"
    return SubwordLabError(reason, path=template_name, field=where)


def render_chat_template(source, template_name="chat template", **variables):
    """Render the Jinja template `source` with `variables`, within the bounds above."""
    if not isinstance(source, str):
        raise SubwordLabError(f"a chat template is text, not {type(source).__name__}",
                              path=template_name, field="chat_template")
    jinja2 = _jinja()
    budget = _Budget()
    previous = sys.gettrace()
    pieces, size, template = [], 0, None
    try:
        template = _compile(source)
        sys.settrace(budget.global_trace)
        try:
            rendering = template.generate(**variables)
            for piece in rendering:
                size += len(piece)
                if size > MAX_CHARS:
                    raise _Stopped(f"the rendered text is longer than {MAX_CHARS:,} characters",
                                   _suspended_line(rendering))
                pieces.append(piece)
        finally:
            sys.settrace(previous)
    except (_Stopped, jinja2.TemplateError, RecursionError, MemoryError, ArithmeticError,
            TypeError, ValueError, AttributeError, KeyError, IndexError) as exc:
        if isinstance(exc, SubwordLabError):
            raise
        raise _error(exc, template_name, "rendering", template) from None
    return "".join(pieces)


def _suspended_line(generator):
    """Where a template paused to hand out its text: its innermost generator's line."""
    line = None
    while generator is not None and getattr(generator, "gi_frame", None) is not None:
        if generator.gi_frame.f_code.co_filename == _FILENAME:
            line = generator.gi_frame.f_lineno
        generator = generator.gi_yieldfrom
    return line
