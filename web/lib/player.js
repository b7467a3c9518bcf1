// The player every animated view shares: play/pause, step, scrub, speed, start/end,
// keyboard, and one narration line per step.
//
// A view hands the player a timeline: {length, render(k), narrate(k)}. Position k runs
// from 0 (nothing done yet) to length (every step done); render(k) must draw the state
// after k steps from the view's own event log, so stepping back is exact. The player calls
// render at most once per animation frame, however fast it plays or is scrubbed, and
// writes its own controls only where they changed (bench/bench_player.py measures this).
import { t, register, formatNumber } from "../i18n/index.js";
import { svg, setText } from "./dom.js";

register({
  en: {
    "player.label": "Step through the algorithm",
    "player.start": "Go to the start", "player.back": "Step back", "player.play": "Play",
    "player.pause": "Pause", "player.forward": "Step forward", "player.end": "Go to the end",
    "player.scrub": "Step", "player.speed": "Speed", "player.perSecond": { one: "{n} step/s", other: "{n} steps/s" },
    "player.keys": "Keys: space plays or pauses, ← and → step, Home and End jump.",
  },
  vi: {
    "player.label": "Xem từng bước của thuật toán",
    "player.start": "Về đầu", "player.back": "Lùi một bước", "player.play": "Phát",
    "player.pause": "Tạm dừng", "player.forward": "Tiến một bước", "player.end": "Đến cuối",
    "player.scrub": "Bước", "player.speed": "Tốc độ", "player.perSecond": "{n} bước/giây",
    "player.keys": "Phím: dấu cách để phát hoặc dừng, ← và → để đi từng bước, Home và End để nhảy.",
  },
  zh: {
    "player.label": "逐步查看算法",
    "player.start": "回到开头", "player.back": "后退一步", "player.play": "播放",
    "player.pause": "暂停", "player.forward": "前进一步", "player.end": "跳到结尾",
    "player.scrub": "步骤", "player.speed": "速度", "player.perSecond": "每秒 {n} 步",
    "player.keys": "按键：空格播放或暂停，← 和 → 单步，Home 和 End 跳到两端。",
  },
});

const SPEEDS = [1, 2, 5, 20, 100, 500]; // steps per second
const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

// Icons drawn as SVG: the media-control characters (⏮ ⏭ ⏸) are missing from many fonts.
const ICONS = {
  start: "M5 4h2v16H5zM19 4v16L8 12z",
  back: "M5 4h2v16H5zM17 4v16L8 12z",
  play: "M7 4v16l13-8z",
  pause: "M6 4h4v16H6zM14 4h4v16h-4z",
  forward: "M17 4h2v16h-2zM7 4v16l9-8z",
  end: "M17 4h2v16h-2zM5 4v16l11-8z",
};
function icon(name) {
  const image = svg("svg", { viewBox: "0 0 24 24", width: 16, height: 16, "aria-hidden": "true", focusable: "false" });
  image.append(svg("path", { d: ICONS[name], fill: "currentColor" }));
  return image;
}

function button(testid, key, iconName, onClick) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = "button player-button";
  el.dataset.testid = testid;
  el.dataset.key = key;
  el.setAttribute("aria-label", t(key));
  el.title = t(key);
  el.append(icon(iconName));
  el.addEventListener("click", onClick);
  return el;
}

// Writes that skip an unchanged value (setText, from dom.js, does the same for text):
// no style or layout invalidation, no new announcement.
function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

export class Player {
  // container: where the controls go; scope: the element whose keyboard events the player
  // handles; active(): whether the keys are the player's now (a page-wide scope needs it).
  /** @param {{container: HTMLElement, scope?: ParentNode, onPosition?: (k: number) => void,
   *           active?: () => boolean}} options */
  constructor({ container, scope = container, onPosition = () => {}, active = () => true }) {
    this.active = active;
    /** @type {{length: number, render(k: number): void, narrate(k: number): string}} */
    this.timeline = { length: 0, render: () => {}, narrate: () => "" };
    this.k = 0;
    this.playing = false;
    this.speed = 2;
    this.onPosition = onPosition;
    this.frame = 0;
    this.build(container);
    scope.addEventListener("keydown", (event) => this.key(event));
  }

  build(container) {
    const bar = document.createElement("div");
    bar.className = "player";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", t("player.label"));
    this.buttons = {
      start: button("player-start", "player.start", "start", () => { this.pause(); this.seek(0); }),
      back: button("player-step-back", "player.back", "back", () => this.step(-1)),
      play: button("player-play", "player.play", "play", () => this.toggle()),
      forward: button("player-step-forward", "player.forward", "forward", () => this.step(1)),
      end: button("player-end", "player.end", "end", () => { this.pause(); this.seek(this.timeline.length); }),
    };
    this.scrub = document.createElement("input");
    this.scrub.type = "range";
    this.scrub.min = "0";
    this.scrub.dataset.testid = "player-scrub";
    this.scrub.className = "player-scrub";
    this.scrub.setAttribute("aria-label", t("player.scrub"));
    this.scrub.addEventListener("input", () => this.seek(Number(this.scrub.value)));
    this.position = document.createElement("output");
    this.position.className = "player-position";
    this.position.dataset.testid = "player-position";
    this.speedSelect = document.createElement("select");
    this.speedSelect.dataset.testid = "player-speed";
    this.speedSelect.setAttribute("aria-label", t("player.speed"));
    for (const n of SPEEDS) {
      const option = document.createElement("option");
      option.value = String(n);
      option.textContent = t("player.perSecond", { n });
      this.speedSelect.append(option);
    }
    this.speedSelect.value = String(this.speed);
    this.speedSelect.addEventListener("change", () => { this.speed = Number(this.speedSelect.value); });
    const b = this.buttons;
    bar.append(b.start, b.back, b.play, b.forward, b.end, this.scrub, this.position, this.speedSelect);
    this.narration = document.createElement("p");
    this.narration.className = "narration";
    this.narration.dataset.testid = "narration";
    this.narration.setAttribute("aria-live", "polite");
    const keys = document.createElement("p");
    keys.className = "player-keys hint";
    keys.textContent = t("player.keys");
    container.replaceChildren(bar, this.narration, keys);
    this.bar = bar;
  }

  // Show a new timeline, at step k (clamped), paused.
  load(timeline, k = 0) {
    this.pause();
    this.timeline = timeline;
    this.scrub.max = String(timeline.length);
    this.seek(k);
  }

  get length() { return this.timeline.length; }

  // The timeline grew (events still streaming in): keep the position, widen the scrubber.
  grow(length) {
    this.timeline.length = length;
    this.scrub.max = String(length);
    this.scheduleRender();
  }

  seek(k) {
    const target = Math.max(0, Math.min(this.timeline.length, Math.round(Number(k) || 0)));
    this.k = target;
    this.scheduleRender();
    return target;
  }

  step(delta) {
    this.pause();
    return this.seek(this.k + delta);
  }

  toggle() { return this.playing ? this.pause() : this.play(); }

  play() {
    if (this.k >= this.timeline.length) this.seek(0);
    if (this.timeline.length === 0) return;
    this.playing = true;
    this.narration.setAttribute("aria-live", "off"); // no flood of announcements while playing
    this.last = performance.now();
    this.carry = 0;
    this.updateButtons();
    const tick = (now) => {
      if (!this.playing) return;
      this.carry += ((now - this.last) / 1000) * this.speed;
      this.last = now;
      const steps = Math.floor(this.carry);
      if (steps > 0) {
        this.carry -= steps;
        this.seekNow(this.k + steps);
        if (this.k >= this.timeline.length) return this.pause();
      }
      this.playFrame = requestAnimationFrame(tick);
    };
    this.playFrame = requestAnimationFrame(tick);
  }

  pause() {
    if (!this.playing) return;
    this.playing = false;
    cancelAnimationFrame(this.playFrame);
    this.narration.setAttribute("aria-live", "polite");
    this.updateButtons();
    this.scheduleRender();
  }

  // Start playing unless the reader asked for less motion.
  autoplay() {
    if (!reducedMotion()) this.play();
  }

  seekNow(k) {
    this.k = Math.max(0, Math.min(this.timeline.length, k));
    this.render();
  }

  scheduleRender() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  // Draw now the step asked for but left to the next frame: a view's settled() calls this,
  // so that what it resolves to is on the page (a frame may be late on a busy machine, or
  // never come in a hidden or throttled frame).
  drawNow() {
    if (!this.frame) return;
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.render();
  }

  render() {
    const { k, timeline } = this;
    timeline.render(k);
    const value = String(k);
    if (this.scrub.value !== value) this.scrub.value = value;
    setText(this.position, `${k} / ${timeline.length}`);
    setAttr(this.scrub, "aria-valuetext", `${formatNumber(k)} / ${formatNumber(timeline.length)}`);
    setText(this.narration, timeline.narrate(k) || "");
    this.updateButtons();
    this.onPosition(k);
  }

  updateButtons() {
    const { k } = this;
    const n = this.timeline.length;
    const b = this.buttons;
    if (b.back.disabled !== (k <= 0)) b.start.disabled = b.back.disabled = k <= 0;
    if (b.end.disabled !== (k >= n)) b.forward.disabled = b.end.disabled = k >= n;
    if (b.play.disabled !== (n === 0)) b.play.disabled = n === 0;
    if (this.shownPlaying !== this.playing) {
      this.shownPlaying = this.playing;
      b.play.replaceChildren(icon(this.playing ? "pause" : "play"));
    }
    const label = t(this.playing ? "player.pause" : "player.play");
    setAttr(b.play, "aria-label", label);
    setAttr(b.play, "title", label);
    setAttr(b.play, "aria-pressed", String(this.playing));
  }

  key(event) {
    const target = event.target;
    const typing = target.closest?.("input:not([type=range]), textarea, select, [contenteditable], [role=listbox]");
    if (typing || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (!this.active()) return;
    const actions = {
      " ": () => this.toggle(),
      ArrowRight: () => this.step(1),
      ArrowLeft: () => this.step(-1),
      Home: () => { this.pause(); this.seek(0); },
      End: () => { this.pause(); this.seek(this.timeline.length); },
    };
    const action = actions[event.key];
    if (!action) return;
    // A focused button keeps its own Space; the range keeps its own arrows.
    if (event.key === " " && target.tagName === "BUTTON") return;
    if (target === this.scrub && event.key !== " ") return;
    event.preventDefault();
    action();
  }
}
