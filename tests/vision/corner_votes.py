"""Comparing two corner votes as the recognizer's fast paths must keep them:
equal in every field, their evidence (left out of ``==``) bit for bit."""

from __future__ import annotations

from vision.recognizer import _CornerVote


def same_vote(a: _CornerVote, b: _CornerVote) -> bool:
    """Equal votes, their evidence (not part of ``==``) bit for bit too."""
    if a != b or (a.evidence is None) != (b.evidence is None):
        return False
    return a.evidence is None or b.evidence is None or (
        a.evidence.tobytes() == b.evidence.tobytes())
