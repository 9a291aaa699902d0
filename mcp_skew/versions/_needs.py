"""What a profile must hold for mcp-skew to simulate it: checked when it is registered.

A third-party profile may add, remove and replace freely, but some rows are what the
simulated peers answer with or recognise, whatever the revision: a profile that leaves
one out cannot be simulated, and says so when it is loaded (not as a crash in the
middle of a matrix). The rows are data, per era:

- every era: ``MethodNotFound`` (-32601) and ``InvalidParams`` (-32602), the JSON-RPC
  2.0 errors (§5.1) a server answers an unknown method and bad params with, and that a
  dual-era client's fallback reads;
- modern: ``UnsupportedProtocolVersion``, the error a modern server answers a revision it
  does not serve with, and that a client retries on (2026-07-28
  ``basic/versioning.mdx`` §Version Negotiation; schema ``UnsupportedProtocolVersionError``);
- the setting ``resource_not_found`` and every row of ``modern_error_codes`` name an
  error of the profile's own ``errors`` table;
- every row of ``unbatched_methods`` names a request of its own ``methods`` table.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from ._profile import Era, Kind, Profile, ProfileDefinitionError

__all__ = ["NEEDED_ERRORS", "check_needs"]

#: The errors a profile of each era must define, by name.
NEEDED_ERRORS: Final[Mapping[Era, tuple[str, ...]]] = MappingProxyType({
    Era.LEGACY: ("MethodNotFound", "InvalidParams"),
    Era.MODERN: ("MethodNotFound", "InvalidParams", "UnsupportedProtocolVersion"),
})


def check_needs(profile: Profile) -> None:
    """Raise :class:`ProfileDefinitionError` (one line) naming what ``profile`` lacks."""
    errors = profile.errors
    missing = [name for name in NEEDED_ERRORS[profile.era] if name not in errors]
    if missing:
        raise ProfileDefinitionError(
            f"{profile.revision}: a {profile.era.value} revision needs the "
            f"error{'s' * (len(missing) > 1)} {' and '.join(repr(m) for m in missing)} in its "
            "errors table (the simulated peers answer and recognise "
            f"{'them' if len(missing) > 1 else 'it'})")
    named = profile.settings["resource_not_found"]
    if named not in errors:
        raise ProfileDefinitionError(
            f"{profile.revision}: setting 'resource_not_found' names {named!r}, "
            "which is not in its errors table")
    unknown = sorted(profile.names("modern_error_codes") - set(errors))
    if unknown:
        raise ProfileDefinitionError(
            f"{profile.revision}: table 'modern_error_codes' names {', '.join(map(repr, unknown))}, "
            "not in its errors table")
    requests = {name for name, m in profile.methods.items() if m.kind is Kind.REQUEST}
    strays = sorted(profile.names("unbatched_methods") - requests)
    if strays:
        raise ProfileDefinitionError(
            f"{profile.revision}: table 'unbatched_methods' names {', '.join(map(repr, strays))}, "
            "not a request of its methods table")
