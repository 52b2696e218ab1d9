"""One parser module per room.  Each module gives a :class:`Site`: the room's name, how its hands begin
(``start``: a regular expression for a hand's first line; the reader cuts the text at them), the lines it writes between hands (``between``: separators, file
headers), and ``parse``: one hand's lines to ``(RealHand, garbage lines)``, or None for a chunk that only
sets the file's context (Merge's ``<description>``).

>>> [s.name for s in SITES]
['PokerStars', 'Full Tilt', 'Winamax', 'KingsClub', 'Merge', 'OnGame', 'Boss']
>>> site_named("full tilt").name, site_named("FullTilt").name, site_named("stars").name
('Full Tilt', 'Full Tilt', 'PokerStars')
"""

from __future__ import annotations

from badacey_fast.errors import ConfigError
from badacey_fast.histories.sites.base import Site

__all__ = ["Site", "SITES", "site_named"]

def _sites() -> tuple[Site, ...]:
    from badacey_fast.histories.sites import boss, fulltilt, kingsclub, merge, ongame, pokerstars, winamax

    return (pokerstars.SITE, fulltilt.SITE, winamax.SITE, kingsclub.SITE, merge.SITE, ongame.SITE, boss.SITE)


SITES = _sites()


def _key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


_BY_NAME = {_key(alias): s for s in SITES for alias in (s.name,) + s.aliases}


def site_named(name: str) -> Site:
    """The room of a name as a user types it (any case, spaces and punctuation ignored, common short
    names: ``stars``, ``ftp``, ``kings club``); ``ValueError`` naming it otherwise."""
    site = _BY_NAME.get(_key(name))
    if site is None:
        raise ConfigError(f"unknown site {name!r}: expected auto or one of {', '.join(s.name for s in SITES)}")
    return site
