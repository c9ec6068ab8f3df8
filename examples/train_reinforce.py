"""Train a small policy-gradient agent (REINFORCE, NumPy only) against random bots.

    PYTHONPATH=src python examples/train_reinforce.py --game toy --players 2 --seconds 120

The learner plays one seat (a random seat each game) of the Gymnasium environment
``mayagames.rl.gym_env``; the other seats are ``random`` bots. The policy is a
one-hidden-layer network over the observation vector with a masked softmax over
the integer actions (illegal actions get probability 0); a linear value
function is the baseline. Rewards are the environment's terminal rewards
(``zero_sum``: +1 sole win, shared wins in between, losses negative), undiscounted.

At the end it plays ``--eval-games`` fresh games (seeds never used in training)
with the trained policy (sampling its actions, and greedy) and with a uniformly
random learner, and prints the win shares (a win counts 1, a k-way shared win
1/k, a loss or a truncated game 0): the random learner's share is the
baseline, about 1/players.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, field

import numpy as np

from mayagames.rl import gym_env

EVAL_SEED0 = 10**9  # evaluation games use seeds from here on, training seeds stay below


# --- the policy --------------------------------------------------------------------


@dataclass
class Policy:
    """A tanh MLP with a masked softmax head and a linear value baseline."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    v: np.ndarray  # value weights (last entry: bias)

    @classmethod
    def create(cls, obs_size: int, num_actions: int, hidden: int, rng: np.random.Generator) -> "Policy":
        return cls(w1=rng.normal(0, 1 / np.sqrt(obs_size), (obs_size, hidden)),
                   b1=np.zeros(hidden), w2=rng.normal(0, 0.01, (hidden, num_actions)),
                   b2=np.zeros(num_actions), v=np.zeros(obs_size + 1))

    def params(self) -> dict[str, np.ndarray]:
        return {"w1": self.w1, "b1": self.b1, "w2": self.w2, "b2": self.b2}

    def forward(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hidden activations and action probabilities (0 where the mask is 0)."""
        hidden = np.tanh(obs @ self.w1 + self.b1)
        logits = np.where(mask > 0, hidden @ self.w2 + self.b2, -np.inf)
        logits -= logits.max(axis=-1, keepdims=True)
        expo = np.exp(logits)
        return hidden, expo / expo.sum(axis=-1, keepdims=True)

    def value(self, obs: np.ndarray) -> np.ndarray:
        return obs @ self.v[:-1] + self.v[-1]

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator | None) -> int:
        """Sample an action (or take the most likely one when ``rng`` is None)."""
        _, probs = self.forward(obs[None], mask[None])
        if rng is None:
            return int(np.argmax(probs[0]))
        return int(rng.choice(len(probs[0]), p=probs[0]))

    def loss(self, obs, masks, actions, advantages, entropy_coef: float) -> float:
        """The surrogate loss whose gradient :meth:`gradients` returns (for checks)."""
        _, probs = self.forward(obs, masks)
        taken = probs[np.arange(len(actions)), actions]
        logp = np.where(probs > 0, np.log(np.where(probs > 0, probs, 1.0)), 0.0)
        entropy = -(probs * logp).sum(axis=1)
        return float((-(advantages * np.log(taken)) - entropy_coef * entropy).mean())

    def gradients(self, obs, masks, actions, advantages, entropy_coef: float) -> dict[str, np.ndarray]:
        """Gradient of :meth:`loss`: REINFORCE term plus an entropy bonus, backpropagated."""
        hidden, probs = self.forward(obs, masks)
        n = len(actions)
        onehot = np.zeros_like(probs)
        onehot[np.arange(n), actions] = 1.0
        logp = np.where(probs > 0, np.log(np.where(probs > 0, probs, 1.0)), 0.0)
        entropy = -(probs * logp).sum(axis=1, keepdims=True)
        g_logits = -advantages[:, None] * (onehot - probs)  # d(-A log p_a)/dz
        g_logits += entropy_coef * probs * (logp + entropy)  # d(-c H)/dz
        g_logits /= n
        g_hidden = (g_logits @ self.w2.T) * (1 - hidden**2)
        return {"w1": obs.T @ g_hidden, "b1": g_hidden.sum(0),
                "w2": hidden.T @ g_logits, "b2": g_logits.sum(0)}


@dataclass
class Adam:
    """The Adam optimiser over a dict of arrays."""

    lr: float
    beta1: float = 0.9
    beta2: float = 0.999
    m: dict[str, np.ndarray] = field(default_factory=dict)
    s: dict[str, np.ndarray] = field(default_factory=dict)
    t: int = 0

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        for name, grad in grads.items():
            m = self.m.setdefault(name, np.zeros_like(grad))
            s = self.s.setdefault(name, np.zeros_like(grad))
            m[:] = self.beta1 * m + (1 - self.beta1) * grad
            s[:] = self.beta2 * s + (1 - self.beta2) * grad**2
            m_hat, s_hat = m / (1 - self.beta1**self.t), s / (1 - self.beta2**self.t)
            params[name] -= self.lr * m_hat / (np.sqrt(s_hat) + 1e-8)


# --- playing and learning ------------------------------------------------------------


@dataclass
class Batch:
    obs: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    episode_rewards: list[float] = field(default_factory=list)


def play_episode(env, policy: Policy | None, seed: int, rng: np.random.Generator | None) -> tuple[list, float, dict]:
    """One game: ``(steps, reward, final info)``; ``policy=None`` plays uniformly at random."""
    obs, info = env.reset(seed=seed)
    steps, reward, done = [], 0.0, False
    pick = rng or np.random.default_rng(seed)
    while not done:
        if policy is None:
            action = int(pick.choice(np.flatnonzero(obs["action_mask"])))
        else:
            action = policy.act(obs["observation"], obs["action_mask"], rng)
        steps.append((obs["observation"], obs["action_mask"], action))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    return steps, float(reward), info


def collect(env, policy: Policy, episodes: int, first_seed: int, rng: np.random.Generator,
            truncation_reward: float = -1.0) -> Batch:
    """Play ``episodes`` games; a truncated game returns ``truncation_reward``.

    The environment gives 0 for a truncated game (it cannot tell who stalled);
    against random bots it is the learner that stalls (in the toy game, by
    swapping forever), so training scores it as a loss.
    """
    batch = Batch()
    for k in range(episodes):
        steps, reward, info = play_episode(env, policy, first_seed + k, rng)
        if "winners" not in info:
            reward = truncation_reward
        for obs, mask, action in steps:
            batch.obs.append(obs)
            batch.masks.append(mask)
            batch.actions.append(action)
            batch.returns.append(reward)  # terminal reward only, undiscounted
        batch.episode_rewards.append(reward)
    return batch


def update(policy: Policy, adam: Adam, batch: Batch, entropy_coef: float, value_lr: float) -> None:
    obs, masks = np.array(batch.obs), np.array(batch.masks)
    actions, returns = np.array(batch.actions), np.array(batch.returns)
    advantages = returns - policy.value(obs)
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    adam.step(policy.params(), policy.gradients(obs, masks, actions, advantages, entropy_coef))
    error = policy.value(obs) - returns  # least-squares baseline, one gradient step
    policy.v[:-1] -= value_lr * obs.T @ error / len(error)
    policy.v[-1] -= value_lr * error.mean()


def win_share(info: dict) -> float:
    """1 for a win, 1/k for a k-way shared win, 0 for a loss or a truncated game."""
    winners = info.get("winners", [])
    return 1.0 / len(winners) if info["seat"] in winners else 0.0


def evaluate(env, policy: Policy | None, games: int, greedy: bool = False) -> dict[str, float]:
    """Win share and truncated fraction over ``games`` fresh games.

    ``policy=None`` is a uniformly random learner (the baseline); otherwise the
    policy samples its actions, or takes the most likely one when ``greedy``.
    """
    shares, truncated = [], 0
    for k in range(games):
        seed = EVAL_SEED0 + k
        rng = None if greedy or policy is None else np.random.default_rng(seed)
        _, _, info = play_episode(env, policy, seed, rng)
        shares.append(win_share(info))
        truncated += "winners" not in info
    return {"win_share": round(float(np.mean(shares)), 3), "truncated": round(truncated / games, 3)}


def train(game: str = "toy", players: int = 2, seconds: float = 120.0, batch_episodes: int = 64,
          hidden: int = 64, lr: float = 0.01, entropy_coef: float = 0.01, value_lr: float = 0.05,
          seed: int = 0, max_updates: int | None = None, log_every: int = 20) -> tuple[Policy, dict]:
    """Train until ``seconds`` pass (or ``max_updates``); returns the policy and a summary."""
    env = gym_env(game, num_players=players, seat="random", opponents="random")
    rng = np.random.default_rng(seed)
    policy = Policy.create(env.observation_space["observation"].shape[0], env.action_space.n, hidden, rng)
    adam = Adam(lr)
    start, updates, episodes, history = time.perf_counter(), 0, 0, []
    while time.perf_counter() - start < seconds and (max_updates is None or updates < max_updates):
        batch = collect(env, policy, batch_episodes, seed * 10**6 + episodes, rng)
        update(policy, adam, batch, entropy_coef, value_lr)
        updates, episodes = updates + 1, episodes + batch_episodes
        history.append(float(np.mean(batch.episode_rewards)))
        if log_every and updates % log_every == 0:
            print(f"update {updates:5d}  episodes {episodes:7d}  mean reward (last {log_every}) "
                  f"{np.mean(history[-log_every:]):+.3f}  {time.perf_counter() - start:6.1f}s", flush=True)
    return policy, {"updates": updates, "episodes": episodes,
                    "train_seconds": round(time.perf_counter() - start, 1), "reward_history": history}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="toy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=120.0, help="training time budget")
    parser.add_argument("--batch", type=int, default=64, help="episodes per update")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--eval-games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="write the trained weights to this .npz file")
    args = parser.parse_args()
    policy, summary = train(args.game, args.players, args.seconds, args.batch, args.hidden, args.lr,
                            seed=args.seed)
    env = gym_env(args.game, num_players=args.players, seat="random", opponents="random")
    results = {"trained_sampling": evaluate(env, policy, args.eval_games),
               "trained_greedy": evaluate(env, policy, args.eval_games, greedy=True),
               "random_learner": evaluate(env, None, args.eval_games)}
    if args.save:
        np.savez(args.save, **policy.params(), v=policy.v)
    summary.pop("reward_history")
    print(json.dumps({"game": args.game, "players": args.players, **summary,
                      "eval_games": args.eval_games, **results}))


if __name__ == "__main__":
    main()
