"""Local search for whole-tournament seatings (players are indices ``0 .. n-1``).

The state is one partition of the players into tables of four per session. The cost is
lexicographic, coded as one integer with weights large enough that a lower level can never
outweigh a higher one:

1. extra meetings: sum over pairs of ``max(0, meetings - 1)``;
2. group conflicts: per session and table, pairs of players of the same group;
3. consecutive repeats: (pair, session) with the pair at one table in that session and the
   next.

A move swaps two players of different tables within one session that is not frozen; its
cost change is computed from the meeting counts kept incrementally (a few dozen
operations). The search is a tabu search: at each step
evaluate every swap of a player with a conflict (with any player of another table in
that session), make the best swap not tabu (or any swap that beats the best cost so far;
a swap made is tabu for 10-30 iterations), and after 400 iterations without improvement
restart from the best state shaken by a few random swaps. Everything random comes from the
``random.Random`` passed in, and the work is bounded by a number of evaluated swaps, never
by time, so results are reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence


class Search:
    def __init__(
        self,
        n: int,
        sessions: list[list[list[int]]],
        group: Sequence[int],
        frozen: int,
        rng: random.Random,
    ) -> None:
        self.n = n
        self.rng = rng
        self.group = list(group)
        self.frozen = frozen  # sessions 0 .. frozen-1 never change
        self.nsessions = len(sessions)
        r = self.nsessions
        # weights: a whole level below can never outweigh one unit above
        self.wc = 1
        self.wg = 2 * r * n + 1
        self.we = self.wg * (2 * r * n + 1)
        self.tables = [[list(t) for t in s] for s in sessions]
        self.where = [[0] * n for _ in range(r)]
        for s, tabs in enumerate(self.tables):
            for t, members in enumerate(tabs):
                for p in members:
                    self.where[s][p] = t
        self.meet = [[0] * n for _ in range(n)]
        for tabs in self.tables:
            for members in tabs:
                self._count(members, 1)
        self.evaluations = 0

    def _count(self, members: Sequence[int], step: int) -> None:
        meet = self.meet
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                meet[a][b] += step
                meet[b][a] += step

    # --- cost -------------------------------------------------------------------------

    def figures(self) -> tuple[int, int, int]:
        n, meet, group = self.n, self.meet, self.group
        extra = sum(max(0, meet[a][b] - 1) for a in range(n) for b in range(a + 1, n))
        gconf = 0
        consec = 0
        for s, tabs in enumerate(self.tables):
            nxt = self.where[s + 1] if s + 1 < self.nsessions else None
            for members in tabs:
                for i, a in enumerate(members):
                    for b in members[i + 1 :]:
                        if group[a] == group[b]:
                            gconf += 1
                        if nxt is not None and nxt[a] == nxt[b]:
                            consec += 1
        return extra, gconf, consec

    def cost(self) -> int:
        extra, gconf, consec = self.figures()
        return extra * self.we + gconf * self.wg + consec * self.wc

    def delta(self, s: int, p: int, q: int) -> int:
        """Cost change of swapping players ``p`` and ``q`` (at different tables) in ``s``."""
        self.evaluations += 1
        where = self.where
        ws = where[s]
        a_side = self.tables[s][ws[p]]
        b_side = self.tables[s][ws[q]]
        meet, group = self.meet, self.group
        we, wg = self.we, self.wg
        nbs = []
        if s > 0:
            nbs.append(where[s - 1])
        if s + 1 < self.nsessions:
            nbs.append(where[s + 1])
        d = 0
        # each side's table-mates lose the player who leaves and gain the one who comes
        for side, out, come in ((a_side, p, q), (b_side, q, p)):
            m_out, m_come = meet[out], meet[come]
            g_out, g_come = group[out], group[come]
            for a in side:
                if a == out:
                    continue
                if m_out[a] >= 2:
                    d -= we
                if m_come[a] >= 1:
                    d += we
                if g_out != g_come:
                    ga = group[a]
                    if ga == g_out:
                        d -= wg
                    elif ga == g_come:
                        d += wg
                for nb in nbs:
                    na = nb[a]
                    if na == nb[out]:
                        d -= 1
                    if na == nb[come]:
                        d += 1
        return d

    def swap(self, s: int, p: int, q: int) -> None:
        ws = self.where[s]
        tp, tq = ws[p], ws[q]
        a_side = self.tables[s][tp]
        b_side = self.tables[s][tq]
        meet = self.meet
        for side, out, come in ((a_side, p, q), (b_side, q, p)):
            for a in side:
                if a != out:
                    meet[out][a] -= 1
                    meet[a][out] -= 1
                    meet[come][a] += 1
                    meet[a][come] += 1
        a_side[a_side.index(p)] = q
        b_side[b_side.index(q)] = p
        ws[p], ws[q] = tq, tp

    # --- conflicts --------------------------------------------------------------------

    def conflicted(self, repeats: bool = True) -> list[tuple[int, int]]:
        """(session, player) for every player with a conflict in a session not frozen; with
        ``repeats`` false, repeated meetings do not count as conflicts (used once extra
        meetings are down to their bound)."""
        limit = 2 if repeats else 1 << 30
        out = []
        meet, group, where = self.meet, self.group, self.where
        last = self.nsessions - 1
        for s in range(self.frozen, self.nsessions):
            prev = where[s - 1] if s > 0 else None
            nxt = where[s + 1] if s < last else None
            for members in self.tables[s]:
                for p in members:
                    mp = meet[p]
                    gp = group[p]
                    for a in members:
                        if a != p and (
                            mp[a] >= limit
                            or group[a] == gp
                            or (prev is not None and prev[a] == prev[p])
                            or (nxt is not None and nxt[a] == nxt[p])
                        ):
                            out.append((s, p))
                            break
        return out

    # --- the search -------------------------------------------------------------------

    def snapshot(self) -> list[list[list[int]]]:
        return [[t[:] for t in tabs] for tabs in self.tables]

    def restore(self, tables: list[list[list[int]]]) -> None:
        for s in range(self.frozen, self.nsessions):
            for members in self.tables[s]:
                self._count(members, -1)
            self.tables[s] = [m[:] for m in tables[s]]
            for t, members in enumerate(self.tables[s]):
                self._count(members, 1)
                for p in members:
                    self.where[s][p] = t

    def run(self, budget: int, target: int, quiet: int) -> list[list[list[int]]]:
        """Search until the cost reaches ``target`` or ``budget`` swaps have been evaluated,
        or stop early when nothing improved for ``quiet`` evaluations (once extra meetings
        are at their target level) or for ``budget // 2`` (before). Returns the best tables
        found."""
        rng = self.rng
        cost = self.cost()
        best_cost = cost
        best = self.snapshot()
        if self.frozen >= self.nsessions or self.n <= 4:
            return best
        tabu: dict[tuple[int, int, int], int] = {}
        it = 0
        last_improvement = self.evaluations
        last_it = 0
        n = self.n
        target_level = target // self.we
        while cost > target and self.evaluations < budget:
            it += 1
            conf = self.conflicted(repeats=cost // self.we > target_level)
            if not conf:
                break
            # the best swap, over every conflicted player and every partner in its session,
            # that is not tabu (unless it beats the best cost so far); ties drawn at random
            best_d: int | None = None
            choices: list[tuple[int, int, int]] = []
            for s, p in conf:
                ws = self.where[s]
                tp = ws[p]
                for q in range(n):
                    if ws[q] == tp:
                        continue
                    d = self.delta(s, p, q)
                    if best_d is not None and d > best_d:
                        continue
                    key = (s, p, q) if p < q else (s, q, p)
                    if tabu.get(key, 0) > it and cost + d >= best_cost:
                        continue
                    if best_d is None or d < best_d:
                        best_d = d
                        choices = [(s, p, q)]
                    else:
                        choices.append((s, p, q))
            if best_d is None:
                self.evaluations += 1  # a pick with no move still uses up the budget
                continue
            s, p, q = choices[rng.randrange(len(choices))]
            self.swap(s, p, q)
            cost += best_d
            tabu[(s, p, q) if p < q else (s, q, p)] = it + rng.randint(10, 30)
            if cost < best_cost:
                best_cost = cost
                best = self.snapshot()
                last_improvement = self.evaluations
                last_it = it
            elif self.evaluations - last_improvement > (
                quiet if best_cost // self.we <= target_level else budget // 2
            ):
                break  # secondary figures stalled, or the bound looks out of reach
            elif it - last_it > 400:
                # restart from the best state, shaken by a few random swaps
                self.restore(best)
                cost = best_cost
                for _ in range(rng.randint(2, 6)):
                    s = rng.randrange(self.frozen, self.nsessions)
                    p, q = rng.sample(range(n), 2)
                    if self.where[s][p] != self.where[s][q]:
                        cost += self.delta(s, p, q)
                        self.swap(s, p, q)
                tabu.clear()
                last_it = it
        return best


def greedy_session(
    n: int,
    meet: list[list[int]],
    group: Sequence[int],
    prev: Sequence[int] | None,
    rng: random.Random,
) -> list[list[int]]:
    """One session seated player by player (in random order) at the open table where the
    player adds the least cost (meetings already used, same group, met in the previous
    session), tables tried in random order."""
    ntables = n // 4
    tables: list[list[int]] = [[] for _ in range(ntables)]
    order = list(range(n))
    rng.shuffle(order)
    open_tables = list(range(ntables))
    for p in order:
        mp = meet[p]
        gp = group[p]
        best_t = -1
        best_c = None
        start = rng.randrange(len(open_tables))
        for i in range(len(open_tables)):
            t = open_tables[(start + i) % len(open_tables)]
            c = 0
            for a in tables[t]:
                if mp[a]:
                    c += 1_000_000 * mp[a]
                if group[a] == gp:
                    c += 1000
                if prev is not None and prev[a] == prev[p]:
                    c += 1
            if best_c is None or c < best_c:
                best_c, best_t = c, t
                if c == 0:
                    break
        tables[best_t].append(p)
        if len(tables[best_t]) == 4:
            open_tables.remove(best_t)
            for i, a in enumerate(tables[best_t]):
                for b in tables[best_t][i + 1 :]:
                    meet[a][b] += 1
                    meet[b][a] += 1
    return tables


def relabel_for_groups(
    sessions: list[list[list[int]]],
    n: int,
    group: Sequence[int],
    rng: random.Random,
    budget: int,
) -> list[int]:
    """A permutation ``perm`` (structure index → player) lowering group conflicts of the
    given sessions, by label swaps (a relabelling keeps every meeting count). Starts from the
    identity; descent with random sideways moves, bounded by ``budget`` evaluations."""
    r = len(sessions)
    # tables[s][i] = the other structure indices at i's table in session s
    mates = [[() for _ in range(n)] for _ in range(r)]
    for s, tabs in enumerate(sessions):
        for members in tabs:
            for i in members:
                mates[s][i] = tuple(m for m in members if m != i)
    perm = list(range(n))  # structure index -> player

    def conflicts_of(i: int) -> int:
        g = group[perm[i]]
        return sum(1 for s in range(r) for m in mates[s][i] if group[perm[m]] == g)

    def total() -> int:
        return sum(conflicts_of(i) for i in range(n)) // 2

    cost = total()
    evaluations = 0
    stale = 0
    while cost and evaluations < budget and stale < 50 * n:
        bad = [i for i in range(n) if conflicts_of(i)]
        i = bad[rng.randrange(len(bad))]
        gi = group[perm[i]]
        best_d = None
        choices = []
        for j in range(n):
            gj = group[perm[j]]
            if gj == gi:
                continue
            evaluations += 1
            d = 0
            for s in range(r):
                mi, mj = mates[s][i], mates[s][j]
                if j in mi:
                    continue  # same table: swapping changes nothing there
                for m in mi:
                    gm = group[perm[m]]
                    d += (gm == gj) - (gm == gi)
                for m in mj:
                    gm = group[perm[m]]
                    d += (gm == gi) - (gm == gj)
            if best_d is None or d < best_d:
                best_d, choices = d, [j]
            elif d == best_d:
                choices.append(j)
        if not choices or best_d > 0:
            stale += n
            continue
        j = choices[rng.randrange(len(choices))]
        perm[i], perm[j] = perm[j], perm[i]
        stale = stale + n if best_d == 0 else 0
        cost += best_d
    return perm
