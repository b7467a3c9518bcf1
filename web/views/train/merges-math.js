// The small calculations of the merges renderer: a WordPiece score as its fraction, one
// merge applied to a split, and a binary search over merge steps.
import { formatNumber } from "../../i18n/index.js";

function gcd(a, b) { while (b) [a, b] = [b, a % b]; return a; }

// "1/20 = 5 / (20 × 5)": WordPiece's score as the fraction it comes from.
export function scoreText(count, left, right) {
  const den = left * right;
  const g = gcd(count, den) || 1;
  return `${formatNumber(count / g)}/${formatNumber(den / g)} = ${formatNumber(count)} / (${formatNumber(left)} × ${formatNumber(right)})`;
}

// Apply one merge to a split (left to right, non-overlapping, as the trainers do).
export function applyMerge(tokens, a, b, made) {
  const out = [];
  for (let i = 0; i < tokens.length; i++) {
    if (i + 1 < tokens.length && tokens[i] === a && tokens[i + 1] === b) { out.push(made); i++; }
    else out.push(tokens[i]);
  }
  return out;
}

// How many of the ascending steps are <= k.
export function countAtOrBefore(steps, k) {
  let lo = 0, hi = steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid] <= k) lo = mid + 1; else hi = mid;
  }
  return lo;
}
