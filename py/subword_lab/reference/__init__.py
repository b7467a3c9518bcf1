"""A plain reference of each algorithm, written to be read on one screen.

The fast code in `subword_lab.models` and `subword_lab.trainers` uses merge
tables, lazy prefix tables, caches and heaps; the modules here do the same work
the slow, obvious way, with standard Python only, so a learner can check each
step by eye. Property tests (tests/python/test_reference_*.py) prove the fast
paths give the same results and the same events (docs/events.md) as these.

- `bpe`: BPE encoding of one word, lowest-rank merge first.
- `bpe_train`: BPE training, the most frequent pair first.
- `wordpiece`: WordPiece encoding, greedy longest match first.
- `wordpiece_train`: WordPiece training, the best pair score first.
- `unigram`: Unigram encoding, the best path through the lattice (Viterbi).
- `unigram_train`: Unigram training, SentencePiece's EM and the course's trainer.
- `byte_level`: the byte-level pre-tokenization split (GPT-2's).
- `steps`: records, beside each event, the reference line that reported it and
  the values of that function's named variables, and the line that takes the step
  (what the page's Code panel shows).
- `panel`: the Code panel's answer for an encode (the reference run on the pieces the
  model saw, one step per model event) or a training run (the page and the notebook
  show it).
"""
