"""The form a memory snapshot is kept in (web/lib/snapshot.js, packSnapshot and
unpackSnapshot): the pages that are not all zeros, with a checksum. Run in the browser on
an empty page of the site (no Python needed): what comes back is the memory that went in,
byte for byte, and an entry damaged in any of the ways a stored file can be is refused
with a reason rather than handed to Pyodide (test_snapshot.py shows the page then starts
fresh)."""
from __future__ import annotations

# Memory of four pages and a short one: zeros, data, zeros, data with a zero word at the
# end, then 100 bytes of data (a memory's size need not be a multiple of a page, nor of
# a word). Each case: what the stored form is changed into, and the error expected.
ROUND_TRIP = """async () => {
  const { packSnapshot, unpackSnapshot } = await import('/lib/snapshot.js');
  const PAGE = 4096;
  const memory = new Uint8Array(4 * PAGE + 101);
  for (let i = PAGE; i < 2 * PAGE; i++) memory[i] = (i * 7919) % 251;
  for (let i = 3 * PAGE; i < 4 * PAGE - 4; i++) memory[i] = i % 13;
  for (let i = 4 * PAGE; i < memory.length; i++) memory[i] = 1 + (i % 7);
  const packed = new Uint8Array(await packSnapshot(memory).arrayBuffer());
  const back = unpackSnapshot(packed.slice().buffer, memory.length);
  const same = back.length === memory.length && back.every((b, i) => b === memory[i]);
  const refused = (bytes, size = memory.length) => {
    try { unpackSnapshot(bytes.buffer, size); return 'accepted'; } catch (e) { return e.message; }
  };
  const flipped = packed.slice(); flipped[packed.length - 2 * PAGE] ^= 1;
  const zeroed = packed.slice(); zeroed.fill(0, packed.length - 50);
  const markGone = packed.slice(); markGone[24 + 1] = 0;
  return {
    same, storedBytes: packed.length,
    flipped: refused(flipped),
    zeroed: refused(zeroed),
    short: refused(packed.slice(0, packed.length - 1)),
    longer: refused(new Uint8Array([...packed, 0])),
    markGone: refused(markGone),
    otherSize: refused(packed.slice(), memory.length + 1),
    noSize: refused(packed.slice(), NaN),
    garbage: refused(new Uint8Array(4096).map((_, i) => (i * 7919) % 251)),
    empty: refused(new Uint8Array(0)),
  };
}"""


def test_pages_come_back_as_they_went_and_damage_is_refused(app):
    page = app.page
    page.goto(f"{app.site}/__test__/blank.html")  # the module imported on its own
    found = page.evaluate(ROUND_TRIP)
    assert found.pop("same") is True
    # The head (8 + 16 bytes), a byte per page, and the three pages that hold data.
    assert found.pop("storedBytes") == 24 + 5 + 4096 + 4096 + 101
    assert found == {
        "flipped": "stored snapshot is damaged: checksum",
        "zeroed": "stored snapshot is damaged: checksum",
        "short": "stored snapshot is damaged: cut short",
        "longer": "stored snapshot is damaged: wrong length",
        "markGone": "stored snapshot is damaged: wrong length",
        "otherSize": "stored snapshot is damaged: wrong size",
        "noSize": "stored snapshot is damaged: wrong size",
        "garbage": "stored snapshot is damaged: not a snapshot",
        "empty": "stored snapshot is damaged: not a snapshot",
    }
