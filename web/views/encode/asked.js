// "Why this token?": which of a trace's token rows make the token that was asked about.
// Python answers with the stretch's tokens and the asked one's place among them
// (trace.why: {tokens, token, added}); a renderer holds the same tokens as rows of its
// own (a word's tokens, a lattice path's edges). They agree row for row, except that a run
// of unknown characters is one token in Python's list and one edge a character in a path.

// rows: [{value, group}] in order (a run never crosses a group: a word, a piece).
// Returns {first, last}, the rows that make the asked token, or null for an ordinary
// encode, an added token, or rows that do not spell Python's list.
export function askedRows(why, rows) {
  if (!why || why.added || !Number.isInteger(why.token)) return null;
  let next = 0;
  for (const [k, value] of why.tokens.entries()) {
    const first = next;
    let text = "";
    while (next < rows.length && text.length < value.length && rows[next].group === rows[first].group) {
      text += rows[next++].value;
    }
    if (first >= rows.length || text !== value) return null;
    if (k === why.token) return next > first ? { first, last: next - 1 } : null; // an empty token: no row
  }
  return null;
}
