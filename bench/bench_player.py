"""Smoothness of the training views on a large run, in headless Chromium.

Opens ?view=train&algo=bpe&corpus=botchan (byte-level BPE, 5,000 merges: corpus_info's
default for botchan) and, once training is done, measures the main thread with a
PerformanceObserver({type: "longtask", buffered: true}) and requestAnimationFrame
frame counting while:
  - training: the event batches arriving from the training worker and the log built;
  - play: playing at the fastest speed for 5 s;
  - scrub: the range input set to 50 positions across the run (input events), then
    100 presses of the right arrow key;
  - jump: End, then Home.
The same for WordPiece (vocabulary 5,000) and Unigram (EM, vocabulary 1,000) on botchan. For each phase: the longest
main-thread task, the count of tasks over 50 ms, frames per second and the longest gap
between two frames.

Long tasks are wall-clock time: on a busy machine the main thread is also preempted, and
a 10 ms task can be seen as 100 ms. So each phase is also traced (Chromium tracing) and
the CPU time of every main-thread task is read from the trace (`tdur`, the thread's own
time): that figure does not depend on what else runs on the machine, and is the one
tests/browser/test_smooth.py asserts on.

    .venv/bin/python bench/bench_player.py        (results in bench/results/player.json)

tests/browser/test_smooth.py uses the same functions.
"""
from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LONG = 50.0  # ms: a task longer than this is a "long task" (the bound)
PLAY_SECONDS = float(os.environ.get("BENCH_PLAY_SECONDS", "5"))
READY = "html[data-engine=ready], html[data-engine=error]"

# Installed before any page script runs, so the observer sees the whole session.
INSTRUMENT = """
(() => {
  const perf = (window.__smooth = { tasks: [], frames: [] });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) perf.tasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (error) { perf.unsupported = String(error); }
  const loop = (now) => { perf.frames.push(now); requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
})();
"""

# Wait two frames and a macrotask so pending renders and longtask entries are delivered.
SETTLE = """() => new Promise((done) => requestAnimationFrame(() =>
  requestAnimationFrame(() => setTimeout(() => done(performance.now()), 50))))"""

PLAY = """async (seconds) => {
  const player = window.subwordLab.player();
  player.pause();
  player.seek(0);
  const speed = document.querySelector('[data-testid=player-speed]');
  speed.value = speed.options[speed.options.length - 1].value;
  speed.dispatchEvent(new Event('change'));
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const start = performance.now();
  const k0 = player.k;
  document.querySelector('[data-testid=player-play]').click();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  player.pause();
  return { start, end: performance.now(), steps: player.k - k0 };
}"""

SCRUB = """async () => {
  const scrub = document.querySelector('[data-testid=player-scrub]');
  const n = Number(scrub.max);
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const start = performance.now();
  for (let i = 0; i < 50; i++) {
    scrub.value = String(Math.round(((i * 37) % 50) / 49 * n)); // spread, out of order
    scrub.dispatchEvent(new Event('input', { bubbles: true }));
    await frame();
  }
  return { start, n };
}"""

JUMP = """async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const start = performance.now();
  document.querySelector('[data-testid=player-end]').click();
  await frame(); await frame();
  document.querySelector('[data-testid=player-start]').click();
  await frame(); await frame();
  return { start };
}"""


TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"]
TASKS = ("RunTask", "ThreadControllerImpl::RunTask")


def main_thread_tasks(trace: bytes, origin: str, after_mark: str | None = None) -> list:
    """[(cpu ms, wall ms)] of the tasks the page's main thread ran, read from a trace.

    The page's renderer is the process that ran our scripts; after_mark keeps only
    the tasks that started after that performance.mark."""
    events = json.loads(trace)["traceEvents"]
    pids = {e["pid"] for e in events if e.get("name") in ("FunctionCall", "EvaluateScript")
            and str(e.get("args", {}).get("data", {}).get("url", "")).startswith(origin)}
    mains = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name"
             and e["args"].get("name") == "CrRendererMain" and e["pid"] in pids}
    since = min((e["ts"] for e in events if e.get("name") == after_mark), default=0) if after_mark else 0
    return [(e.get("tdur", 0) / 1000, e.get("dur", 0) / 1000) for e in events
            if e.get("ph") == "X" and e.get("name") in TASKS and (e["pid"], e["tid"]) in mains
            and e["ts"] >= since]


def traced(browser, page, origin: str, action, after_mark: str | None = None) -> dict:
    """Run action() under Chromium tracing; add the CPU figures of the main thread's tasks."""
    browser.start_tracing(page=page, categories=TRACE_CATEGORIES)
    try:
        result = action()
    finally:
        trace = browser.stop_tracing()
    tasks = main_thread_tasks(trace, origin, after_mark)
    assert tasks, "the trace has no task of the page's main thread"
    result["cpu_longest_task_ms"] = round(max(cpu for cpu, _ in tasks), 1)
    result["cpu_tasks_over_50ms"] = sum(cpu > LONG for cpu, _ in tasks)
    result["tasks_traced"] = len(tasks)
    return result


def chromium_path():
    import shutil
    return os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE") or shutil.which("chromium")


def summarize(perf: dict, start: float, end: float) -> dict:
    """The long tasks that started in [start, end] and the frames painted in it."""
    tasks = [d for (s, d) in perf["tasks"] if start <= s <= end]
    frames = [f for f in perf["frames"] if start <= f <= end]
    gaps = [b - a for a, b in zip(frames, frames[1:])]
    seconds = max(end - start, 1) / 1000
    return {
        "ms": round(end - start),
        "longest_task_ms": round(max(tasks, default=0.0), 1),
        "tasks_over_50ms": sum(d > LONG for d in tasks),
        "long_tasks": len(tasks),
        "fps": round(len(frames) / seconds, 1),
        "longest_frame_gap_ms": round(max(gaps, default=0.0), 1),
    }


def perf_data(page) -> dict:
    page.evaluate(SETTLE)
    return page.evaluate("() => window.__smooth")


def open_run(page, site: str, query: str, timeout: float = 600_000) -> dict:
    """Open a training link and wait for the run to finish; the training phase's figures."""
    page.add_init_script(INSTRUMENT)
    page.goto(f"{site}/{query}")
    page.wait_for_selector(READY, state="attached", timeout=180_000)
    start = page.evaluate("performance.getEntriesByName('subwordlab:ready')[0]?.startTime ?? 0")
    page.wait_for_function(
        "() => /^(Done|Training was cancelled)/.test(document.querySelector('[data-testid=train-status]')?.textContent || '')"
        " || document.querySelector('[data-testid=train-error]')?.textContent",
        timeout=timeout, polling=250)
    page.evaluate("async () => { await (await window.subwordLab.showView('train')).settled(); }")
    end = page.evaluate(SETTLE)
    error = page.get_by_test_id("train-error").text_content()
    assert not error, error
    return summarize(perf_data(page), start, end)


def measure_play(page, seconds: float = PLAY_SECONDS) -> dict:
    run = page.evaluate(PLAY, seconds)
    perf = perf_data(page)
    result = summarize(perf, run["start"], run["end"])
    result["steps_played"] = run["steps"]
    return result


def measure_scrub(page, keys: int = 100) -> dict:
    run = page.evaluate(SCRUB)
    page.get_by_test_id("player-play").focus()
    for _ in range(keys):
        page.keyboard.press("ArrowRight")
    end = page.evaluate(SETTLE)
    return summarize(perf_data(page), run["start"], end)


def measure_jump(page) -> dict:
    run = page.evaluate(JUMP)
    end = page.evaluate(SETTLE)
    return summarize(perf_data(page), run["start"], end)


def measure_run(browser, site: str, query: str) -> dict:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        result = {"query": query}
        result["training"] = traced(browser, page, site, lambda: open_run(page, site, query),
                                    after_mark="subwordlab:ready")
        result["steps"] = page.evaluate("window.subwordLab.player().length")
        for phase, action in (("play", measure_play), ("scrub", measure_scrub), ("jump", measure_jump)):
            result[phase] = traced(browser, page, site, lambda: action(page))
        return result
    finally:
        context.close()


RUNS = {
    "bpe": "?view=train&algo=bpe&corpus=botchan",
    "wordpiece": "?view=train&algo=wordpiece&corpus=botchan",
    "unigram": "?view=train&algo=unigram&corpus=botchan&vocab_size=1000&method=em",
}


def main() -> int:
    import build
    from playwright.sync_api import sync_playwright

    directory = Path(os.environ.get("BENCH_DIST", build.DIST))
    if not (directory / "index.html").exists():
        build.build()
    server = build.make_server(directory, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    site = f"http://127.0.0.1:{server.server_address[1]}"
    args = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    names = sys.argv[1:] or list(RUNS)
    results = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=args)
        for name in names:
            results[name] = measure_run(browser, site, RUNS[name])
        browser.close()
    server.shutdown()

    print("\nTraining views on botchan.txt, headless Chromium (long task = over 50 ms)")
    print(f"{'':<16}{'wall clock (PerformanceObserver)':^34}{'CPU (trace)':^22}")
    print(f"{'run / phase':<16}{'longest':>9}{'> 50':>6}{'fps':>6}{'max gap':>10}"
          f"{'longest':>12}{'> 50':>7}")
    for name, result in results.items():
        print(f"{name} ({result['steps']:,} steps)")
        for phase in ("training", "play", "scrub", "jump"):
            r = result[phase]
            print(f"  {phase:<14}{r['longest_task_ms']:>6.0f} ms{r['tasks_over_50ms']:>6}"
                  f"{r['fps']:>6.0f}{r['longest_frame_gap_ms']:>7.0f} ms"
                  f"{r['cpu_longest_task_ms']:>9.1f} ms{r['cpu_tasks_over_50ms']:>7}")
        print(f"  (played {result['play']['steps_played']:,} steps in {PLAY_SECONDS:g} s)")
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "player.json").write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
