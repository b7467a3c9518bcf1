"""Regular expressions: patterns of three dialects translated to Python's re (`translate`),
run in two planes (`planes`), and guarded against runaway patterns (`guard`)."""
