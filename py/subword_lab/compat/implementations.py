"""`tokenizers.implementations`: ready-made pipelines around a Tokenizer.

Each class builds a Tokenizer with the usual components for one family
(BERT WordPiece, GPT-2 byte-level BPE, original-GPT character BPE, SentencePiece
BPE and Unigram), keeps the options it was built with in `_parameters`, and passes
everything else through to the wrapped Tokenizer.
"""
from __future__ import annotations


from .. import decoders, models, normalizers, pre_tokenizers, processors
from . import trainers_module as trainers
from ..added_vocabulary import AddedToken
from ..core.errors import SubwordLabError
from ..tokenizer import Tokenizer

__all__ = ["BaseTokenizer", "BertWordPieceTokenizer", "ByteLevelBPETokenizer",
           "CharBPETokenizer", "SentencePieceBPETokenizer", "SentencePieceUnigramTokenizer"]

_COMPONENTS = ("model", "normalizer", "pre_tokenizer", "post_processor", "decoder")


class BaseTokenizer:
    """A Tokenizer plus the parameters it was built with; other calls go to the Tokenizer."""

    def __init__(self, tokenizer, parameters=None):
        object.__setattr__(self, "_tokenizer", tokenizer)
        object.__setattr__(self, "_parameters", dict(parameters or {}))

    def __repr__(self):
        options = ", ".join(f"{k}={v}" for k, v in self._parameters.items())
        return f"Tokenizer(vocabulary_size={self._tokenizer.get_vocab_size()}, {options})"

    def __getattr__(self, name):
        return getattr(self._tokenizer, name)

    def __setattr__(self, name, value):
        if name in _COMPONENTS:
            setattr(self._tokenizer, name, value)
        else:
            object.__setattr__(self, name, value)

    def save_model(self, directory, prefix=None):
        return self._tokenizer.model.save(directory, prefix=prefix)

    def _train(self, trainer, files=None, iterator=None, length=None):
        if files is not None:
            self._tokenizer.train([files] if isinstance(files, str) else list(files),
                                  trainer=trainer)
        else:
            self._tokenizer.train_from_iterator(iterator, trainer=trainer, length=length)


def _specials(tokens):
    return [t if isinstance(t, AddedToken) else AddedToken(t, special=True) for t in tokens]


def _has(tokenizer, token):
    return tokenizer.token_to_id(str(token)) is not None


class BertWordPieceTokenizer(BaseTokenizer):
    """BERT: BertNormalizer, BertPreTokenizer, WordPiece, [CLS] ... [SEP]."""

    def __init__(self, vocab=None, unk_token="[UNK]", sep_token="[SEP]", cls_token="[CLS]",
                 pad_token="[PAD]", mask_token="[MASK]", clean_text=True,
                 handle_chinese_chars=True, strip_accents=None, lowercase=True,
                 wordpieces_prefix="##"):
        if isinstance(vocab, str):
            vocab = models.WordPiece.read_file(vocab)
        model = models.WordPiece(vocab or {}, unk_token=str(unk_token))
        tokenizer = Tokenizer(model)
        for token in (unk_token, sep_token, cls_token, pad_token, mask_token):
            if _has(tokenizer, token):
                tokenizer.add_special_tokens([str(token)])
        tokenizer.normalizer = normalizers.BertNormalizer(
            clean_text=clean_text, handle_chinese_chars=handle_chinese_chars,
            strip_accents=strip_accents, lowercase=lowercase)
        tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        if vocab:
            sep_id, cls_id = tokenizer.token_to_id(str(sep_token)), tokenizer.token_to_id(str(cls_token))
            if sep_id is None or cls_id is None:
                raise SubwordLabError(f"{sep_token} and {cls_token} must be in the vocabulary",
                                      field="vocab")
            tokenizer.post_processor = processors.BertProcessing(
                (str(sep_token), sep_id), (str(cls_token), cls_id))
        tokenizer.decoder = decoders.WordPiece(prefix=wordpieces_prefix)
        super().__init__(tokenizer, {
            "model": "BertWordPiece", "unk_token": unk_token, "sep_token": sep_token,
            "cls_token": cls_token, "pad_token": pad_token, "mask_token": mask_token,
            "clean_text": clean_text, "handle_chinese_chars": handle_chinese_chars,
            "strip_accents": strip_accents, "lowercase": lowercase,
            "wordpieces_prefix": wordpieces_prefix})

    @staticmethod
    def from_file(vocab, **kwargs):
        return BertWordPieceTokenizer(models.WordPiece.read_file(vocab), **kwargs)

    def _trainer(self, vocab_size, min_frequency, limit_alphabet, initial_alphabet,
                 special_tokens, show_progress, wordpieces_prefix):
        return trainers.WordPieceTrainer(
            vocab_size=vocab_size, min_frequency=min_frequency, limit_alphabet=limit_alphabet,
            initial_alphabet=initial_alphabet or [], special_tokens=special_tokens,
            show_progress=show_progress, continuing_subword_prefix=wordpieces_prefix)

    def train(self, files, vocab_size=30000, min_frequency=2, limit_alphabet=1000,
              initial_alphabet=None, special_tokens=("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"),
              show_progress=True, wordpieces_prefix="##"):
        self._train(self._trainer(vocab_size, min_frequency, limit_alphabet, initial_alphabet,
                                  list(special_tokens), show_progress, wordpieces_prefix), files)

    def train_from_iterator(self, iterator, vocab_size=30000, min_frequency=2,
                            limit_alphabet=1000, initial_alphabet=None,
                            special_tokens=("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"),
                            show_progress=True, wordpieces_prefix="##", length=None):
        self._train(self._trainer(vocab_size, min_frequency, limit_alphabet, initial_alphabet,
                                  list(special_tokens), show_progress, wordpieces_prefix),
                    iterator=iterator, length=length)


def _bpe_model(vocab, merges, **options):
    if isinstance(vocab, str) and isinstance(merges, str):
        vocab, merges = models.BPE.read_file(vocab, merges)
    if vocab is not None and merges is not None:
        return models.BPE(vocab, merges, **options)
    return models.BPE(**options)


def _drop_none(**options):
    return {k: v for k, v in options.items() if v is not None}


class ByteLevelBPETokenizer(BaseTokenizer):
    """GPT-2: byte-level pre-tokenizer, BPE and decoder."""

    def __init__(self, vocab=None, merges=None, add_prefix_space=False, lowercase=False,
                 dropout=None, unicode_normalizer=None, continuing_subword_prefix=None,
                 end_of_word_suffix=None, trim_offsets=False):
        tokenizer = Tokenizer(_bpe_model(vocab, merges, **_drop_none(
            dropout=dropout, continuing_subword_prefix=continuing_subword_prefix or "",
            end_of_word_suffix=end_of_word_suffix or "")))
        steps = []
        if unicode_normalizer:
            steps.append(getattr(normalizers, unicode_normalizer.upper())())
        if lowercase:
            steps.append(normalizers.Lowercase())
        if steps:
            tokenizer.normalizer = steps[0] if len(steps) == 1 else normalizers.Sequence(steps)
        tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=add_prefix_space)
        tokenizer.decoder = decoders.ByteLevel()
        tokenizer.post_processor = processors.ByteLevel(trim_offsets=trim_offsets)
        super().__init__(tokenizer, {
            "model": "ByteLevelBPE", "add_prefix_space": add_prefix_space,
            "lowercase": lowercase, "dropout": dropout, "unicode_normalizer": unicode_normalizer,
            "continuing_subword_prefix": continuing_subword_prefix,
            "end_of_word_suffix": end_of_word_suffix, "trim_offsets": trim_offsets})

    @staticmethod
    def from_file(vocab_filename, merges_filename, **kwargs):
        vocab, merges = models.BPE.read_file(vocab_filename, merges_filename)
        return ByteLevelBPETokenizer(vocab, merges, **kwargs)

    def _trainer(self, vocab_size, min_frequency, show_progress, special_tokens):
        return trainers.BpeTrainer(
            vocab_size=vocab_size, min_frequency=min_frequency, show_progress=show_progress,
            special_tokens=list(special_tokens or []),
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet())

    def train(self, files, vocab_size=30000, min_frequency=2, show_progress=True,
              special_tokens=()):
        self._train(self._trainer(vocab_size, min_frequency, show_progress, special_tokens), files)

    def train_from_iterator(self, iterator, vocab_size=30000, min_frequency=2,
                            show_progress=True, special_tokens=(), length=None):
        self._train(self._trainer(vocab_size, min_frequency, show_progress, special_tokens),
                    iterator=iterator, length=length)


class CharBPETokenizer(BaseTokenizer):
    """The original GPT's BPE: BertPreTokenizer, words ending in "</w>"."""

    def __init__(self, vocab=None, merges=None, unk_token="<unk>", suffix="</w>", dropout=None,
                 lowercase=False, unicode_normalizer=None, bert_normalizer=True,
                 split_on_whitespace_only=False):
        tokenizer = Tokenizer(_bpe_model(vocab, merges, **_drop_none(
            dropout=dropout, unk_token=str(unk_token), end_of_word_suffix=suffix)))
        if _has(tokenizer, unk_token):
            tokenizer.add_special_tokens([str(unk_token)])
        steps = []
        if unicode_normalizer:
            steps.append(getattr(normalizers, unicode_normalizer.upper())())
        if bert_normalizer:
            steps.append(normalizers.BertNormalizer(lowercase=False))
        if lowercase:
            steps.append(normalizers.Lowercase())
        if steps:
            tokenizer.normalizer = steps[0] if len(steps) == 1 else normalizers.Sequence(steps)
        tokenizer.pre_tokenizer = (pre_tokenizers.WhitespaceSplit() if split_on_whitespace_only
                                   else pre_tokenizers.BertPreTokenizer())
        tokenizer.decoder = decoders.BPEDecoder(suffix=suffix)
        super().__init__(tokenizer, {
            "model": "BPE", "unk_token": unk_token, "suffix": suffix, "dropout": dropout,
            "lowercase": lowercase, "unicode_normalizer": unicode_normalizer,
            "bert_normalizer": bert_normalizer,
            "split_on_whitespace_only": split_on_whitespace_only})

    @staticmethod
    def from_file(vocab_filename, merges_filename, **kwargs):
        vocab, merges = models.BPE.read_file(vocab_filename, merges_filename)
        return CharBPETokenizer(vocab, merges, **kwargs)

    def _trainer(self, vocab_size, min_frequency, special_tokens, limit_alphabet,
                 initial_alphabet, suffix, show_progress):
        return trainers.BpeTrainer(
            vocab_size=vocab_size, min_frequency=min_frequency,
            special_tokens=list(special_tokens), limit_alphabet=limit_alphabet,
            initial_alphabet=initial_alphabet or [], end_of_word_suffix=suffix,
            show_progress=show_progress)

    def train(self, files, vocab_size=30000, min_frequency=2, special_tokens=("<unk>",),
              limit_alphabet=1000, initial_alphabet=None, suffix="</w>", show_progress=True):
        self._train(self._trainer(vocab_size, min_frequency, special_tokens, limit_alphabet,
                                  initial_alphabet, suffix, show_progress), files)

    def train_from_iterator(self, iterator, vocab_size=30000, min_frequency=2,
                            special_tokens=("<unk>",), limit_alphabet=1000,
                            initial_alphabet=None, suffix="</w>", show_progress=True,
                            length=None):
        self._train(self._trainer(vocab_size, min_frequency, special_tokens, limit_alphabet,
                                  initial_alphabet, suffix, show_progress),
                    iterator=iterator, length=length)


def _metaspace(replacement, add_prefix_space):
    scheme = "always" if add_prefix_space else "never"
    return (pre_tokenizers.Metaspace(replacement=replacement, prepend_scheme=scheme),
            decoders.Metaspace(replacement=replacement, prepend_scheme=scheme))


class SentencePieceBPETokenizer(BaseTokenizer):
    """SentencePiece-style BPE: NFKC, Metaspace ("▁" marks a word start)."""

    def __init__(self, vocab=None, merges=None, unk_token="<unk>", replacement="\u2581",
                 add_prefix_space=True, dropout=None, fuse_unk=False):
        tokenizer = Tokenizer(_bpe_model(vocab, merges, **_drop_none(
            dropout=dropout, unk_token=str(unk_token), fuse_unk=fuse_unk)))
        if _has(tokenizer, unk_token):
            tokenizer.add_special_tokens([str(unk_token)])
        tokenizer.normalizer = normalizers.NFKC()
        tokenizer.pre_tokenizer, tokenizer.decoder = _metaspace(replacement, add_prefix_space)
        super().__init__(tokenizer, {
            "model": "SentencePieceBPE", "unk_token": unk_token, "replacement": replacement,
            "add_prefix_space": add_prefix_space, "dropout": dropout})

    @staticmethod
    def from_file(vocab_filename, merges_filename, **kwargs):
        vocab, merges = models.BPE.read_file(vocab_filename, merges_filename)
        return SentencePieceBPETokenizer(vocab, merges, **kwargs)

    def _trainer(self, vocab_size, min_frequency, special_tokens, limit_alphabet,
                 initial_alphabet, show_progress):
        return trainers.BpeTrainer(
            vocab_size=vocab_size, min_frequency=min_frequency,
            special_tokens=list(special_tokens), limit_alphabet=limit_alphabet,
            initial_alphabet=initial_alphabet or [], show_progress=show_progress)

    def train(self, files, vocab_size=30000, min_frequency=2, special_tokens=("<unk>",),
              limit_alphabet=1000, initial_alphabet=None, show_progress=True):
        self._train(self._trainer(vocab_size, min_frequency, special_tokens, limit_alphabet,
                                  initial_alphabet, show_progress), files)

    def train_from_iterator(self, iterator, vocab_size=30000, min_frequency=2,
                            special_tokens=("<unk>",), limit_alphabet=1000,
                            initial_alphabet=None, show_progress=True, length=None):
        self._train(self._trainer(vocab_size, min_frequency, special_tokens, limit_alphabet,
                                  initial_alphabet, show_progress),
                    iterator=iterator, length=length)


class SentencePieceUnigramTokenizer(BaseTokenizer):
    """SentencePiece-style Unigram: NMT-like cleanup, NFKC, collapsed spaces, Metaspace."""

    def __init__(self, vocab=None, replacement="\u2581", add_prefix_space=True):
        model = models.Unigram(vocab) if vocab is not None else models.Unigram()
        tokenizer = Tokenizer(model)
        tokenizer.normalizer = normalizers.Sequence([
            normalizers.NFKC(), normalizers.Replace(pre_tokenizers.Regex(" {2,}"), " ")])
        tokenizer.pre_tokenizer, tokenizer.decoder = _metaspace(replacement, add_prefix_space)
        super().__init__(tokenizer, {
            "model": "SentencePieceUnigram", "replacement": replacement,
            "add_prefix_space": add_prefix_space})

    def _trainer(self, vocab_size, show_progress, special_tokens, initial_alphabet, unk_token):
        return trainers.UnigramTrainer(
            vocab_size=vocab_size, special_tokens=list(special_tokens or []),
            show_progress=show_progress, initial_alphabet=initial_alphabet or [],
            unk_token=unk_token)

    def train(self, files, vocab_size=8000, show_progress=True, special_tokens=None,
              initial_alphabet=None, unk_token=None):
        self._train(self._trainer(vocab_size, show_progress, special_tokens, initial_alphabet,
                                  unk_token), files)

    def train_from_iterator(self, iterator, vocab_size=8000, show_progress=True,
                            special_tokens=None, initial_alphabet=None, unk_token=None,
                            length=None):
        self._train(self._trainer(vocab_size, show_progress, special_tokens, initial_alphabet,
                                  unk_token), iterator=iterator, length=length)

    @staticmethod
    def from_spm(filename):
        """A tokenizer from a sentencepiece .model file (through subword_lab.load)."""
        from ..io.loaders import load
        loaded = load(filename)
        tokenizer = loaded if isinstance(loaded, Tokenizer) else getattr(loaded, "tokenizer", loaded)
        wrapper = SentencePieceUnigramTokenizer.__new__(SentencePieceUnigramTokenizer)
        BaseTokenizer.__init__(wrapper, tokenizer, {"model": "SentencePieceUnigram"})
        return wrapper
