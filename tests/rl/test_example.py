"""The REINFORCE example: its gradients are right and a short seeded run learns."""

from __future__ import annotations

import numpy as np
import pytest

from mayagames.rl import gym_env


@pytest.fixture(scope="module")
def example(load_script):
    return load_script("examples/train_reinforce.py")


def small_batch(rng: np.random.Generator, n: int = 6, obs_size: int = 5, actions: int = 4):
    obs = rng.normal(size=(n, obs_size))
    masks = (rng.random((n, actions)) < 0.6).astype(np.int8)
    masks[np.arange(n), rng.integers(0, actions, n)] = 1
    chosen = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    return obs, masks, chosen, rng.normal(size=n)


def test_policy_gradient_matches_finite_differences(example):
    rng = np.random.default_rng(0)
    policy = example.Policy.create(5, 4, 3, rng)
    policy.w2 = rng.normal(size=policy.w2.shape)  # away from the near-uniform start
    obs, masks, actions, adv = small_batch(rng)
    grads = policy.gradients(obs, masks, actions, adv, entropy_coef=0.1)
    for name, param in policy.params().items():
        numeric = np.zeros_like(param)
        for idx in np.ndindex(param.shape):
            old = param[idx]
            param[idx] = old + 1e-6
            up = policy.loss(obs, masks, actions, adv, 0.1)
            param[idx] = old - 1e-6
            down = policy.loss(obs, masks, actions, adv, 0.1)
            param[idx] = old
            numeric[idx] = (up - down) / 2e-6
        assert np.allclose(grads[name], numeric, atol=1e-6), name


def test_masked_policy_never_picks_an_illegal_action(example):
    rng = np.random.default_rng(1)
    policy = example.Policy.create(5, 4, 8, rng)
    obs, masks, _, _ = small_batch(rng, n=50)
    _, probs = policy.forward(obs, masks)
    assert np.all(probs[masks == 0] == 0) and np.allclose(probs.sum(1), 1)
    for o, m in zip(obs, masks):
        assert m[policy.act(o, m, rng)] == 1 and m[policy.act(o, m, None)] == 1


def test_short_seeded_training_beats_random(example):
    policy, summary = example.train("toy", 2, seconds=120, batch_episodes=32, seed=3,
                                    max_updates=25, log_every=0)
    assert summary["updates"] == 25 and summary["episodes"] == 800
    env = gym_env("toy", num_players=2, seat="random")
    trained = example.evaluate(env, policy, 300)
    baseline = example.evaluate(env, None, 300)
    assert 0.4 < baseline["win_share"] < 0.6
    assert trained["win_share"] > baseline["win_share"] + 0.15
