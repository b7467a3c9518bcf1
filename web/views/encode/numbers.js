// How the Unigram views print a log-probability and a probability, in the page's language.
import { formatNumber, lang } from "../../i18n/index.js";

// Numbers: log scores to 4 decimals; probabilities to 6 decimals (or 3 significant when tiny).
export const fmtScore = (x) => formatNumber(x, lang(), { minimumFractionDigits: 4, maximumFractionDigits: 4 });
export function fmtProb(p) {
  if (p >= 1e-4 || p === 0) return formatNumber(p, lang(), { minimumFractionDigits: 6, maximumFractionDigits: 6 });
  return formatNumber(p, lang(), { notation: "scientific", maximumSignificantDigits: 3 });
}
