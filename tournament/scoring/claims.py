"""Checking what a referee entered: a fan total, a list of fan names, or both.

With the winning hand scored by the calculator, the claim is compared with it: fans
missing from the claim, fans claimed that the hand does not score, and a wrong total.
Without tiles, the claimed fans can still be checked against each other (fans that
exclude one another cannot be counted together) and against the 8-fan minimum.
"""

import re
from collections import Counter
from dataclasses import dataclass

from tournament.scoring.fans import FAN_BY_KEY, Fan, fan_by_name
from tournament.scoring.hand import HandError
from tournament.scoring.settlement import MIN_FAN

FLOWERS = "flower_tiles"
# "Pure Double Chow ×2", "一般高 x2", "Pure Double Chow*2", "Pure Double Chow 2"
_COUNT = re.compile(r"^(?P<name>.*?)\s*(?:[×xX*]\s*(?P<count>\d+)|\s(?P<bare>\d+))?\s*$")


@dataclass(frozen=True)
class ClaimedFan:
    fan: Fan
    count: int = 1


def parse_claimed_fans(text: str) -> tuple[ClaimedFan, ...]:
    """Read fan names separated by commas, semicolons or new lines (English or Chinese).

    A count follows a name as "×2" (or "x2", "*2"). Raises HandError("unknown_fan")
    naming the first name it does not know.
    """
    counts: Counter[str] = Counter()
    for part in re.split(r"[,;\n、，；]+", text or ""):
        part = part.strip()
        if not part:
            continue
        match = _COUNT.match(part)
        name = match.group("name").strip()
        count = int(match.group("count") or match.group("bare") or 1)
        try:
            fan = fan_by_name(name)
        except KeyError as error:
            raise HandError("unknown_fan", f"Unknown fan name: {name!r}.") from error
        if count < 1:
            raise HandError("bad_fan_count", f"{fan.name_en}: a count is at least 1.")
        counts[fan.key] += count
    return tuple(ClaimedFan(FAN_BY_KEY[key], n) for key, n in counts.items())


@dataclass(frozen=True)
class ClaimCheck:
    """The verdict on a claim; ``problems`` holds codes, the other fields the details."""

    claimed_total: int | None  # without flowers: as typed, else the sum of the fans named
    computed_total: int | None  # without flowers, when the hand was scored
    missing: tuple[ClaimedFan, ...]  # scored by the hand, not (or fewer times) claimed
    extra: tuple[ClaimedFan, ...]  # claimed, not (or fewer times) scored by the hand
    incompatible: tuple[tuple[Fan, Fan], ...]  # (fan, fan it excludes), both claimed
    named_total: int | None  # the sum of the fans named, when names were given
    problems: tuple[str, ...]

    @property
    def agrees(self) -> bool:
        return not self.problems

    @property
    def reaches_minimum(self) -> bool:
        total = self.computed_total if self.computed_total is not None else self.claimed_total
        return total is not None and total >= MIN_FAN


def check_claim(*, claimed_total=None, claimed_fans=(), scored=None) -> ClaimCheck:
    """Compare a claim (a total and/or ClaimedFans) with a scored hand, or check it alone.

    ``scored`` is the calculator's result for the winning hand, or None when only
    the claim is known. Flowers are left out on both sides: the minimum and the
    totals are without flowers.
    """
    claimed = {c.fan.key: c for c in claimed_fans if c.fan.key != FLOWERS}
    named_total = sum(c.fan.points * c.count for c in claimed.values()) if claimed else None
    incompatible = tuple(
        (a.fan, b.fan)
        for a in claimed.values()
        for b in claimed.values()
        if a is not b and b.fan.key in a.fan.excludes
    )
    problems = []
    if incompatible:
        problems.append("incompatible_fans")
    missing: tuple[ClaimedFan, ...] = ()
    extra: tuple[ClaimedFan, ...] = ()
    computed_total = None
    if scored is not None:
        computed_total = scored.total_without_flowers
        computed = {f.key: f.count for f in scored.fans if f.key != FLOWERS}
        if claimed:
            missing = tuple(
                ClaimedFan(FAN_BY_KEY[key], n - (claimed[key].count if key in claimed else 0))
                for key, n in computed.items()
                if n > (claimed[key].count if key in claimed else 0)
            )
            extra = tuple(
                ClaimedFan(c.fan, c.count - computed.get(key, 0))
                for key, c in claimed.items()
                if c.count > computed.get(key, 0)
            )
            if missing:
                problems.append("missing_fans")
            if extra:
                problems.append("extra_fans")
    total = claimed_total if claimed_total is not None else named_total
    if claimed_total is not None and named_total is not None and claimed_total != named_total:
        problems.append("total_differs_from_fans_named")
    if computed_total is not None and total is not None and total != computed_total:
        problems.append("wrong_total")
    reference = computed_total if computed_total is not None else total
    if reference is not None and reference < MIN_FAN:
        problems.append("below_minimum")
    return ClaimCheck(
        claimed_total=total,
        computed_total=computed_total,
        missing=missing,
        extra=extra,
        incompatible=incompatible,
        named_total=named_total,
        problems=tuple(problems),
    )
