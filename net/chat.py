"""Chat placeholder (filled below)."""
from dataclasses import dataclass


@dataclass(frozen=True)
class ChatLine:
    sender: str
    seat: int | None
    text: str


class Chat:
    pass
