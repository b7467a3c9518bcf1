"""The course's WordPiece numbers (the Hugging Face course's tokenizer chapter): BERT's
pre-tokenizer on the sentence corpus, vocab size 70, ties by first occurrence,
and the toy corpus. Scores are recomputed here as Fractions from the trainer's
own initial splits, then checked against the README."""
from __future__ import annotations

from fractions import Fraction

from subword_lab import models
from subword_lab.trainers import WordPieceTrainer

from train_helpers import COURSE, ours

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
LEARNED = ["ab", "##fu", "Fa", "Fac", "##ct", "##ful", "##full", "##fully", "Th", "ch",
           "##hm", "cha", "chap", "chapt", "##thm", "Hu", "Hug", "Hugg", "sh", "th", "is",
           "##thms", "##za", "##zat", "##ut"]


def train(events):
    tok = ours(models.WordPiece(unk_token="[UNK]"), "bert")
    trainer = WordPieceTrainer(vocab_size=70, special_tokens=SPECIALS, tie_break="first")
    tok.train_from_iterator(COURSE, trainer, on_event=events.append)
    return tok, trainer


def scores(words):
    """Every pair's score, from (tokens, count) splits, exactly."""
    freq, pairs = {}, {}
    for tokens, count in words:
        for t in tokens:
            freq[t] = freq.get(t, 0) + count
        for p in zip(tokens, tokens[1:]):
            pairs[p] = pairs.get(p, 0) + count
    return {p: Fraction(n, freq[p[0]] * freq[p[1]]) for p, n in pairs.items()}


def test_learned_tokens():
    events = []
    tok, trainer = train(events)
    assert trainer.tokens() == LEARNED
    assert tok.get_vocab_size() == 70
    assert len(events[1]["alphabet"]) == 40


def test_first_scores():
    events = []
    train(events)
    initial = scores([(w["tokens"], w["count"]) for w in events[2]["words"]])
    assert float(initial[("T", "##h")]) == 0.125
    assert float(initial[("##h", "##i")]) == 0.03409090909090909
    assert float(initial[("i", "##s")]) == 0.1
    best = max(initial.values())
    assert float(best) == 0.2
    first = next(e for e in events if e["type"] == "merge")
    assert first["pair"] == ["a", "##b"] and first["score"] == 0.2
    assert Fraction(first["count"], first["left_count"] * first["right_count"]) == best
    # ("##f", "##u") scores 0.2 too: corpus order decided
    assert first["tie"]["rule"] == "first_occurrence" and ["##f", "##u"] in first["tie"]["tied"]


def test_encoding_with_learned_vocab():
    tok, _ = train([])
    assert tok.encode("Hugging").tokens == ["Hugg", "##i", "##n", "##g"]
    assert tok.encode("HOgging").tokens == ["[UNK]"]
    assert tok.encode("This is the Hugging Face course!").tokens == [
        "Th", "##i", "##s", "is", "th", "##e", "Hugg", "##i", "##n", "##g", "Fac", "##e",
        "c", "##o", "##u", "##r", "##s", "##e", "[UNK]"]


TOY = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


def toy_run(vocab_size=10):
    trainer = WordPieceTrainer(vocab_size=vocab_size, tie_break="first")
    trainer.feed_word_counts(TOY)
    events = []
    trainer.train(None, on_event=events.append)
    return trainer, events


def replay(words, event):
    """The splits after one merge event."""
    a, b = event["pair"]
    out = []
    for tokens, count in words:
        i, new = 0, []
        while i < len(tokens):
            if i + 1 < len(tokens) and (tokens[i], tokens[i + 1]) == (a, b):
                new.append(event["token"])
                i += 2
            else:
                new.append(tokens[i])
                i += 1
        out.append((new, count))
    return out


def test_toy_corpus():
    trainer, events = toy_run()
    assert events[1]["alphabet"] == ["##g", "##n", "##s", "##u", "b", "h", "p"]
    words = [(w["tokens"], w["count"]) for w in events[2]["words"]]
    initial = scores(words)
    with_u = [s for p, s in initial.items() if "##u" in p]
    assert len(with_u) == 5 and set(with_u) == {Fraction(1, 36)}
    assert initial[("##u", "##g")] == Fraction(20, 36 * 20)
    merges = [e for e in events if e["type"] == "merge"]
    assert merges[0]["token"] == "##gs" and Fraction(merges[0]["score"]).limit_denominator(1000) == Fraction(1, 20)
    assert merges[1]["pair"] == ["h", "##u"] and merges[1]["token"] == "hu"
    after_two = replay(replay(words, merges[0]), merges[1])
    third = scores(after_two)
    assert max(third.values()) == Fraction(1, 15)
    # The third merge is the pair that scores 1/15. The README names it ("hu", "##g")
    # -> "hug", but recomputing gives ("hu", "##g") 10 / (15 x 15) = 2/45 and
    # ("hu", "##gs") 5 / (15 x 5) = 1/15: the real algorithm learns "hugs".
    assert third[("hu", "##g")] == Fraction(2, 45)
    best = [p for p, s in third.items() if s == Fraction(1, 15)]
    assert merges[2]["pair"] == list(best[0]) and len(best) == 1
    assert Fraction(merges[2]["count"], merges[2]["left_count"] * merges[2]["right_count"]) == Fraction(1, 15)


def test_toy_encoding_with_course_vocab():
    """The course's encoding examples, on the vocabulary it lists."""
    vocab = ["[UNK]", "b", "h", "p", "##g", "##n", "##s", "##u", "##gs", "hu", "hug"]
    model = models.WordPiece({t: i for i, t in enumerate(vocab)}, unk_token="[UNK]")
    tok = ours(model, "bert")
    assert tok.encode("hugs").tokens == ["hug", "##s"]
    assert tok.encode("bugs").tokens == ["b", "##u", "##gs"]
    assert tok.encode("mug").tokens == ["[UNK]"]
    assert tok.encode("bum").tokens == ["[UNK]"]
