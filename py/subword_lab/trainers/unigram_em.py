"""The EM core of SentencePiece's Unigram trainer, on plain lists.

Every piece keeps one id for the whole run (0 is the unknown piece, used where a
character has lost its own piece); `alive[id]` says whether it is still in the
vocabulary and `order` lists the live pieces in model order (the order matters
for ties, as in SentencePiece). Each word's lattice edges are found once, from
the seed, and only filtered afterwards, so an iteration costs one pass over the
edges and no string work.

- E step: forward-backward over each word's lattice gives every piece's expected
  count (in probability space; a word so long that its total probability
  underflows is redone in log space).
- M step: pieces expected less than 0.5 times go; the others get
  digamma(count) - digamma(total), the Bayesian (Dirichlet-prior) update that
  pushes rare pieces down harder than plain count / total.
- Pruning: for every piece, the best segmentation of the piece without it (its
  alternative) and the approximate loss of the corpus likelihood if every use of
  the piece became its alternative; the pieces that cost least go, keeping
  `shrinking_factor` of the vocabulary per round, and by the same loss a last cut
  to the exact size (`prune_to`).
"""
from __future__ import annotations

import math

UNK_ID = 0
UNK_PENALTY = 10.0  # an unknown character scores min(score) - 10, as in sentencepiece
EXPECTED_THRESHOLD = 0.5  # the M step drops pieces expected fewer times than this
_TINY = 1e-250  # below this a word's total probability is redone in log space
_NEG_INF = -math.inf


def digamma(x: float) -> float:
    """The digamma function: shift x up to 7 with the recurrence, then the
    asymptotic series (the same approximation sentencepiece uses)."""
    result = 0.0
    while x < 7.0:
        result -= 1.0 / x
        x += 1.0
    x -= 0.5
    xx = 1.0 / x
    xx2 = xx * xx
    xx4 = xx2 * xx2
    return (result + math.log(x) + xx2 / 24.0 - 7.0 / 960.0 * xx4
            + 31.0 / 8064.0 * xx4 * xx2 - 127.0 / 30720.0 * xx4 * xx4)


def prefix_table(pieces, alive=None) -> dict:
    """Piece -> id, and every proper prefix of a piece -> -1: walking a word forward
    stops at the first prefix that leads to no piece."""
    table = {}
    for i, piece in enumerate(pieces):
        if alive is not None and not alive[i]:
            continue
        for k in range(1, len(piece)):
            table.setdefault(piece[:k], -1)
    for i, piece in enumerate(pieces):
        if i != UNK_ID and (alive is None or alive[i]):
            table[piece] = i
    return table


def find_edges(word: str, table: dict, max_len: int):
    """The lattice edges of `word`: (starts, ends, ids), by start then length.

    A position that starts no one-character piece gets an unknown edge of one
    character after its other edges, as sentencepiece and tokenizers build it."""
    starts, ends, ids = [], [], []
    n = len(word)
    get = table.get
    for i in range(n):
        single = False
        for j in range(i + 1, min(n, i + max_len) + 1):
            pid = get(word[i:j])
            if pid is None:
                break
            if pid >= 0:
                starts.append(i)
                ends.append(j)
                ids.append(pid)
                if j == i + 1:
                    single = True
        if not single:
            starts.append(i)
            ends.append(i + 1)
            ids.append(UNK_ID)
    return starts, ends, ids


def viterbi(n: int, edges, scores):
    """Best path over one lattice: (score, [edge index, ...]). Ties keep the edge
    seen first (the earliest start), as both reference libraries do."""
    starts, ends, ids = edges
    best = [_NEG_INF] * (n + 1)
    best[0] = 0.0
    back = [-1] * (n + 1)
    for k, (s, e, pid) in enumerate(zip(starts, ends, ids)):
        cand = best[s] + scores[pid]
        if cand > best[e]:
            best[e] = cand
            back[e] = k
    path = []
    pos = n
    while pos > 0:
        k = back[pos]
        if k < 0:
            return _NEG_INF, []
        path.append(k)
        pos = starts[k]
    path.reverse()
    return best[n], path


class EMState:
    """Pieces, scores and each word's lattice, for one training run."""

    def __init__(self, seed, words, max_piece_length: int):
        # seed: [(piece, log prob)], without the unknown piece; words: [(word, count)]
        self.pieces = ["<unk>"] + [p for p, _ in seed]
        self.scores = [math.nan] + [s for _, s in seed]
        self.alive = [True] * len(self.pieces)
        self.order = list(range(1, len(self.pieces)))
        self.max_len = max(max_piece_length, 1)
        self.words = [w for w, _ in words]
        self.counts = [c for _, c in words]
        self.total_count = sum(self.counts)
        table = prefix_table(self.pieces)
        self.edges = [find_edges(w, table, self.max_len) for w in self.words]

    # -- vocabulary state -------------------------------------------------------
    def size(self) -> int:
        return len(self.order)

    def min_score(self) -> float:
        scores = self.scores
        return min(scores[i] for i in self.order)

    def unk_score(self) -> float:
        return self.min_score() - UNK_PENALTY

    def live_scores(self) -> list:
        """Scores by id, with the unknown piece's penalty filled in."""
        scores = list(self.scores)
        scores[UNK_ID] = self.unk_score()
        return scores

    def set_vocabulary(self, order, scores=None):
        """Keep only the pieces of `order` (in that order) and refilter the lattices."""
        alive = [False] * len(self.pieces)
        for i in order:
            alive[i] = True
        alive[UNK_ID] = True
        dropped = [i for i in self.order if not alive[i]]
        self.alive = alive
        self.order = list(order)
        if scores is not None:
            self.scores = scores
        if dropped:
            self._filter_edges()
        return dropped

    def _filter_edges(self):
        alive = self.alive
        new_edges = []
        for (starts, ends, ids) in self.edges:
            ns, ne, ni = [], [], []
            last_start = -1
            single = True
            for s, e, pid in zip(starts, ends, ids):
                if s != last_start:
                    if not single:  # the previous position lost its last character
                        ns.append(last_start)
                        ne.append(last_start + 1)
                        ni.append(UNK_ID)
                    last_start = s
                    single = False
                if pid == UNK_ID or alive[pid]:
                    ns.append(s)
                    ne.append(e)
                    ni.append(pid)
                    if e == s + 1:
                        single = True
            if not single:
                ns.append(last_start)
                ne.append(last_start + 1)
                ni.append(UNK_ID)
            new_edges.append((ns, ne, ni))
        self.edges = new_edges

    # -- EM ------------------------------------------------------------------------
    def e_step(self):
        """Expected count of every piece, and the objective: the corpus negative log
        likelihood (summed over all segmentations) per word occurrence."""
        probs = [math.exp(s) for s in self.live_scores()]
        expected = [0.0] * len(self.pieces)
        objective = 0.0
        words = self.words
        for w, (starts, ends, ids), count in zip(words, self.edges, self.counts):
            n = len(w)
            ps = [probs[i] for i in ids]
            alpha = [0.0] * (n + 1)
            alpha[0] = 1.0
            for s, e, p in zip(starts, ends, ps):
                alpha[e] += alpha[s] * p
            z = alpha[n]
            if z < _TINY:
                objective -= count * self._e_step_log(n, (starts, ends, ids), count, expected)
                continue
            beta = [0.0] * (n + 1)
            beta[n] = 1.0
            for s, e, p in zip(reversed(starts), reversed(ends), reversed(ps)):
                beta[s] += p * beta[e]
            scale = count / z
            for s, e, pid, p in zip(starts, ends, ids, ps):
                expected[pid] += alpha[s] * p * beta[e] * scale
            objective -= count * math.log(z)
        return expected, objective / self.total_count

    def _e_step_log(self, n, edges, count, expected):
        """The same forward-backward in log space, for words whose probability
        underflows a float. Returns log Z."""
        starts, ends, ids = edges
        scores = self.live_scores()
        alpha = [_NEG_INF] * (n + 1)
        alpha[0] = 0.0
        for s, e, pid in zip(starts, ends, ids):
            alpha[e] = _log_add(alpha[e], alpha[s] + scores[pid])
        z = alpha[n]
        beta = [_NEG_INF] * (n + 1)
        beta[n] = 0.0
        for s, e, pid in zip(reversed(starts), reversed(ends), reversed(ids)):
            beta[s] = _log_add(beta[s], scores[pid] + beta[e])
        for s, e, pid in zip(starts, ends, ids):
            expected[pid] += count * math.exp(alpha[s] + scores[pid] + beta[e] - z)
        return z

    def m_step(self, expected):
        """New scores from the expected counts; returns the ids dropped."""
        kept = [i for i in self.order if expected[i] >= EXPECTED_THRESHOLD]
        total = 0.0
        for i in kept:
            total += expected[i]
        log_total = digamma(total)
        scores = list(self.scores)
        for i in kept:
            scores[i] = digamma(expected[i]) - log_total
        return self.set_vocabulary(kept, scores)

    # -- pruning -----------------------------------------------------------------
    def viterbi_counts(self):
        """How often each piece is on the best path, over the corpus."""
        scores = self.live_scores()
        freq = [0.0] * len(self.pieces)
        for w, edges, count in zip(self.words, self.edges, self.counts):
            _, path = viterbi(len(w), edges, scores)
            ids = edges[2]
            for k in path:
                freq[ids[k]] += count
        return freq

    def alternatives(self):
        """For each live piece: None if it may go freely (its own best segmentation
        is already split), [] if it must stay (a single character: no other
        segmentation), else the ids of its best segmentation without itself."""
        scores = self.live_scores()
        table = prefix_table(self.pieces, self.alive)
        result = {}
        for pid in self.order:
            piece = self.pieces[pid]
            n = len(piece)
            if n == 1:
                result[pid] = []
                continue
            starts, ends, ids = find_edges(piece, table, self.max_len)
            # drop the edge that is the piece itself
            keep = [k for k, (s, e) in enumerate(zip(starts, ends)) if not (s == 0 and e == n)]
            edges = ([starts[k] for k in keep], [ends[k] for k in keep], [ids[k] for k in keep])
            alt_score, path = viterbi(n, edges, scores)
            if not path:
                result[pid] = []
            elif alt_score > scores[pid]:
                result[pid] = None
            else:
                result[pid] = [edges[2][k] for k in path]
        return result

    def _removal_losses(self):
        """Sort the live pieces for pruning: (kept, candidates, unused). `kept` must
        stay (single characters); `candidates` are [(loss, id)] with the approximate
        loss of corpus likelihood if every use of the piece became its alternative;
        `unused` no best path uses, or their own best split avoids them."""
        alternatives = self.alternatives()
        freq = self.viterbi_counts()
        total = 0.0
        for i in self.order:
            total += freq[i]
        total += freq[UNK_ID]
        log_total = math.log(total)
        vsum = float(self.total_count)
        kept, candidates, unused = [], [], []
        for pid in self.order:
            alts = alternatives[pid]
            f = freq[pid]
            if f == 0 or alts is None:
                unused.append(pid)
            elif not alts:
                kept.append(pid)
            else:
                logprob = math.log(f) - log_total
                log_total_alt = math.log(total + f * (len(alts) - 1))
                logprob_alt = 0.0
                for a in alts:
                    logprob_alt += math.log(freq[a] + f) - log_total_alt
                candidates.append(((f / vsum) * (logprob - logprob_alt), pid))
        # highest loss first; equal losses keep model order (sentencepiece's Sorted)
        position = {pid: k for k, pid in enumerate(self.order)}
        candidates.sort(key=lambda c: (-c[0], position[c[1]]))
        return kept, candidates, unused

    def prune(self, shrinking_factor: float, desired_size: int):
        """One pruning round. Returns (removed [(id, loss or None)], kept count);
        loss None marks a piece no best path used or whose best split avoids it."""
        kept, candidates, unused = self._removal_losses()
        target = max(desired_size, int(shrinking_factor * len(self.order)))
        room = max(target - len(kept), 0)
        for loss, pid in candidates[:room]:
            kept.append(pid)
        removed = [(pid, None) for pid in unused]
        removed.extend((pid, loss) for loss, pid in candidates[room:])
        self.set_vocabulary(kept)
        return removed, len(kept)

    def prune_to(self, size: int, required=()):
        """The last cut, to exactly `size` pieces: the pieces in `required` and the
        single characters stay, then those whose removal costs the most likelihood,
        then (only if room is left) the unused ones in model order. Choosing by the
        loss rather than by score keeps the long pieces that save the most: on a
        mixed multilingual corpus it lowers the corpus NLL by about 1%."""
        if self.size() <= size:
            return
        kept, candidates, unused = self._removal_losses()
        must = [pid for _, pid in candidates if self.pieces[pid] in required]
        must += [pid for pid in unused if self.pieces[pid] in required]
        keep = set(kept) | set(must)
        for pid in [pid for _, pid in candidates] + unused:
            if len(keep) >= size:
                break
            keep.add(pid)
        self.set_vocabulary([pid for pid in self.order if pid in keep])


def _log_add(x: float, y: float) -> float:
    if x < y:
        x, y = y, x
    if y == _NEG_INF:
        return x
    return x + math.log1p(math.exp(y - x))
