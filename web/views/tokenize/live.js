// The page's copy of the encoding that Python's live encode keeps (py/subword_lab/web/live.py).
//
// While typing, Python encodes only the part of the text around the edit and answers with
// a change to the encoding it answered last: the tokens kept at the head and at the tail
// (the first `moved` of the tail shifted by `shift` UTF-16 units), the new ones between.
// A request names the version the page holds (`base`); an answer to another base, or to
// none, is `full`.

// live: the copy after the last answer ({key, specialTokens, version, ids, tokens, offsets,
// special, encoded_chars, ...}: api.encode's fields) or null. Returns the new copy, or null when the answer does not add
// up (then the page asks for all of it again).
export function followAnswer(live, answer, { key, special }) {
  const old = answer.full ? null : live;
  if (!answer.full && !old) return null;
  const joined = (name, move) => {
    if (!old) return answer[name];
    const list = old[name];
    const tail = answer.tail ? list.slice(list.length - answer.tail) : [];
    return list.slice(0, answer.head).concat(answer[name], move ? tail.map(move) : tail);
  };
  if (old) old.change = null; // each copy knows only its predecessor, not the whole chain
  const shift = answer.shift;
  const result = {
    key, specialTokens: special, version: answer.version,
    ids: joined("ids"), tokens: joined("tokens"), special: joined("special"),
    offsets: joined("offsets", (o, i) => (i < answer.moved ? [o[0] + shift, o[1] + shift] : o)),
    encoded_chars: answer.encoded_chars, total_chars: answer.total_chars, special_tokens: answer.special_tokens,
    // what changed since `live`: its first `head` and last `tail` tokens are kept (drawing
    // redoes only the rest, token-list.js)
    change: old ? { from: old, head: answer.head, tail: answer.tail } : null,
  };
  return result.ids.length === answer.length ? result : null;
}
