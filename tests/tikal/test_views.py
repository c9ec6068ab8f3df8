"""Hidden information (deck order, AP bag, tile piles, face-down treasures) stays hidden in views;
determinization fills it consistently."""

import json

from mayagames.core import Rng
from mayagames.core.conformance import fingerprint
from mayagames.tikal.testing import fresh, random_moves


def test_view_redacts_every_hidden_part():
    s = random_moves(fresh(3, seed=11), 150, seed=3)
    v = s.view(1)
    assert v.viewer == 1 and v.redacted and v.rng.state != s.rng.state
    assert set(v.deck) == {-1} and len(v.deck) == len(s.deck)
    assert set(v.bag) <= {-1} and len(v.bag) == len(s.bag)
    assert all(set(p) <= {-1} and len(p) == len(s.piles[k]) for k, p in v.piles.items())
    assert set(v.green) <= {-1} and all(set(st) <= {-1} for st in v.ruin.values())
    d = v.to_dict()
    assert isinstance(d["cards"]["deck"], int) and isinstance(d["ap_tokens"]["bag"], int)
    assert all(isinstance(n, int) for n in d["tiles"]["piles"].values())
    assert "rng" not in d
    assert all("treasure_stack" not in h for h in d["board"]["hexes"])


def test_view_text_contains_no_hidden_value():
    s = fresh(2, seed=12)
    v = json.dumps(s.view(0).to_dict())
    deck_order = [s.card_name(c) for c in s.deck]
    assert json.dumps(deck_order) not in v
    full = json.dumps(s.to_dict())
    assert json.dumps(deck_order) in full


def test_public_parts_are_the_same_in_every_view():
    s = random_moves(fresh(4, seed=13), 300, seed=4)
    views = [s.view(p).to_dict() for p in range(4)] + [s.view(None).to_dict()]
    for d in views:
        d.pop("viewer")
    assert all(d == views[0] for d in views)  # Tikal has no private hands


def test_determinize_is_consistent_with_the_view():
    s = random_moves(fresh(2, seed=14), 200, seed=5)
    v = s.view(0)
    for k in range(5):
        full = v.determinize(Rng(k))
        assert full.viewer is None and not full.redacted and full.invariants() == []
        assert fingerprint(full.view(0)) == fingerprint(v)
        assert sorted(full.deck) == sorted(s.deck)  # the same unseen cards, maybe reordered
        assert sorted(full.bag + full.ap_removed) == sorted(s.bag + s.ap_removed)
        for letter in full.piles:
            assert sorted(full.piles[letter]) == sorted(s.piles[letter])
        hidden = sorted(full.green + [t for st in full.ruin.values() for t in st])
        assert hidden == sorted(s.green + [t for st in s.ruin.values() for t in st])


def test_determinized_games_can_be_played_to_the_end():
    s = random_moves(fresh(3, seed=15), 100, seed=6)
    full = s.view(2).determinize(Rng(9))
    random_moves(full, 5000, seed=7)
    assert full.is_terminal and full.invariants() == []


def test_determinize_of_a_true_state_is_a_clone_with_a_new_generator():
    s = fresh(2, seed=16)
    full = s.determinize(Rng(1))
    assert full.deck == s.deck and full.rng.state != s.rng.state
