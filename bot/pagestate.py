"""What a page of the live web board shows one viewer (``contract.BoardAPI.page``)."""

from __future__ import annotations

from typing import Any

PageState = dict[str, Any]
