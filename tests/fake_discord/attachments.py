"""Files uploaded with a message: multipart parsing, attachment objects, Discord's checks.

discord.py sends a message with files as ``multipart/form-data``: a ``payload_json`` part
holding the JSON body and one ``files[n]`` part per file. The body's ``attachments`` array
lists new files by index (``{"id": n, "filename": ...}``) and, on edits, existing
attachments to keep by their snowflake id.

What Discord does with them, as this module models it (API v10):

- No ``attachments`` key: every uploaded file becomes an attachment; on an edit the
  message's existing attachments are kept and the new files appended.
- An ``attachments`` array: the message ends up with exactly the listed attachments, kept
  ones by id and new ones by file index (an uploaded file nobody lists is dropped);
  ``[]`` removes them all.
- At most 10 attachments per message; each file at most the upload limit (10 MiB on a
  server without boosts, the ``attachment_size_limit`` interactions carry); a bigger file
  is refused with 413 / 40005 before the body is read.
- An embed may show an attached image with ``attachment://NAME`` (image, thumbnail,
  author and footer icons); NAME must be an attachment of the resulting message, else
  400 / 50035 on the URL. Discord returns the embed with the URL rewritten to the CDN.
"""

from __future__ import annotations

import json
import mimetypes
import re
import struct
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from tests.fake_discord.limits import Problem

MAX_ATTACHMENTS = 10
"""Attachments one message may carry (and ``files[n]`` parts one request may send)."""

MAX_DESCRIPTION = 1024
"""The longest description (a picture's alt text) an attachment may carry."""

DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024
"""Bytes per file on a server without boosts (10 MiB, Discord's default since 2024)."""

CDN_BASE = "https://cdn.discordapp.com"
MEDIA_PROXY_BASE = "https://media.discordapp.net"

ATTACHMENT_SCHEME = "attachment://"

_FILE_PART = re.compile(r"^files\[(\d+)\]$|^file(\d*)$")

# Where an embed may name an attachment: (key of the embed, key of the URL inside it).
EMBED_MEDIA_SLOTS: tuple[tuple[str, str], ...] = (
    ("image", "url"),
    ("thumbnail", "url"),
    ("author", "icon_url"),
    ("footer", "icon_url"),
)


@dataclass(frozen=True)
class Upload:
    """One uploaded file part: its ``files[n]`` index, filename, bytes and declared type."""

    index: int
    filename: str
    data: bytes
    content_type: str | None = None

    @property
    def size(self) -> int:
        """Its length in bytes."""
        return len(self.data)


@dataclass
class MultipartBody:
    """A parsed multipart request: the JSON of ``payload_json`` and the uploaded files."""

    json: Any
    uploads: list[Upload]


async def read_multipart(request: web.Request) -> MultipartBody:
    """Read a ``multipart/form-data`` request the way Discord does (no size cap here).

    ``payload_json`` is the body; ``files[n]`` (or legacy ``file``/``fileN``) parts are the
    uploads, in the order sent. Other form fields are ignored.
    """
    reader = await request.multipart()
    payload: Any = None
    uploads: list[Upload] = []
    while True:
        part = await reader.next()
        if part is None:
            break
        if not isinstance(part, BodyPartReader):
            continue
        data = bytes(await part.read(decode=True))
        name = part.name or ""
        if name == "payload_json":
            payload = json.loads(data.decode() or "null")
            continue
        match = _FILE_PART.match(name)
        if match is None and part.filename is None:
            continue
        if match is not None and match.group(1) is not None:
            index = int(match.group(1))
        elif match is not None and match.group(2):
            index = int(match.group(2))
        else:
            index = len(uploads)
        content_type = part.headers.get("Content-Type")
        uploads.append(Upload(index, part.filename or name, data, content_type))
    return MultipartBody(payload, uploads)


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a PNG or GIF from its header, or None for anything else."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return int(width), int(height)
    return None


def content_type_of(filename: str, data: bytes) -> str | None:
    """The content type Discord reports: sniffed for PNG/GIF, else from the extension."""
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    guessed, _ = mimetypes.guess_type(filename)
    if guessed is None:
        return None
    if guessed.startswith("text/"):
        return f"{guessed}; charset=utf-8"
    return guessed


def attachment_urls(channel_id: int, attachment_id: int, filename: str) -> tuple[str, str]:
    """The CDN ``url`` and media-proxy ``proxy_url`` of an attachment, signed like Discord's."""
    path = f"/attachments/{channel_id}/{attachment_id}/{filename}"
    expires = (attachment_id >> 22) // 1000 + 1_420_070_400 + 86_400
    query = f"?ex={expires:08x}&is={expires - 86_400:08x}&hm={attachment_id:064x}&"
    return CDN_BASE + path + query, MEDIA_PROXY_BASE + path + query


def attachment_object(
    attachment_id: int,
    channel_id: int,
    upload: Upload,
    *,
    filename: str | None = None,
    description: str | None = None,
    ephemeral: bool = False,
) -> dict[str, Any]:
    """The attachment object Discord returns for an uploaded file (AttachmentResponse)."""
    name = filename or upload.filename
    url, proxy_url = attachment_urls(channel_id, attachment_id, name)
    data: dict[str, Any] = {
        "id": str(attachment_id),
        "filename": name,
        "size": upload.size,
        "url": url,
        "proxy_url": proxy_url,
    }
    content_type = content_type_of(name, upload.data)
    if content_type is not None:
        data["content_type"] = content_type
    dimensions = image_size(upload.data)
    if dimensions is not None:
        data["width"], data["height"] = dimensions
    if description is not None:
        data["description"] = description
    if ephemeral:
        data["ephemeral"] = True
    return data


def check_sizes(uploads: Sequence[Upload], limit: int) -> list[Problem]:
    """Files over the upload limit (Discord answers 413 / 40005 for these)."""
    return [
        Problem(
            ("files", u.index),
            "FILE_TOO_LARGE",
            f"{u.filename} is {u.size} bytes; the upload limit is {limit} bytes.",
        )
        for u in uploads
        if u.size > limit
    ]


def _as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@dataclass
class Resolution:
    """The attachments a create or edit leaves on the message, and what was wrong."""

    attachments: list[dict[str, Any]] | None
    """The message's attachment objects after the request (None: unchanged by an edit)."""
    new: list[tuple[dict[str, Any], Upload]]
    """The attachment objects created from uploads in this request, with their upload."""
    problems: list[Problem]


def resolve(
    body: Mapping[str, Any],
    uploads: Sequence[Upload],
    existing: Sequence[Mapping[str, Any]] | None,
    *,
    channel_id: int,
    new_id: Callable[[], int],
    ephemeral: bool = False,
) -> Resolution:
    """Work out the attachments of a message created (``existing`` None) or edited.

    ``new_id`` hands out snowflakes for new attachments. Problems (unknown ids, more than
    10 attachments) come with paths relative to the message body.
    """
    problems: list[Problem] = []
    by_index = {u.index: u for u in uploads}
    entries = body.get("attachments")
    new: list[tuple[dict[str, Any], Upload]] = []

    def create(upload: Upload, entry: Mapping[str, Any] | None) -> dict[str, Any]:
        filename = (entry or {}).get("filename") or None
        description = (entry or {}).get("description")
        created = attachment_object(
            new_id(),
            channel_id,
            upload,
            filename=filename,
            description=description,
            ephemeral=ephemeral,
        )
        new.append((created, upload))
        return created

    result: list[dict[str, Any]] | None
    if entries is None:
        if not uploads and existing is not None:
            return Resolution(None, [], [])
        result = [dict(a) for a in existing or []]
        result += [create(u, None) for u in sorted(uploads, key=lambda u: u.index)]
    else:
        kept = {str(a["id"]): a for a in existing or []}
        result = []
        for i, entry in enumerate(entries):
            raw_id = entry.get("id") if isinstance(entry, Mapping) else None
            described = entry.get("description") if isinstance(entry, Mapping) else None
            if isinstance(described, str) and len(described) > MAX_DESCRIPTION:
                problems.append(Problem(("attachments", i, "description"),
                                        "BASE_TYPE_MAX_LENGTH",
                                        f"Must be {MAX_DESCRIPTION} or fewer in length."))
            if raw_id is not None and str(raw_id) in kept:
                result.append(dict(kept[str(raw_id)]))
                continue
            index = _as_int(raw_id)
            if index is not None and index in by_index:
                result.append(create(by_index[index], entry))
                continue
            problems.append(
                Problem(
                    ("attachments", i, "id"),
                    "ATTACHMENT_NOT_FOUND",
                    f"Unknown attachment {raw_id!r}: neither an attachment of the message "
                    "nor the index of a file sent with this request.",
                )
            )
    count = max(len(result), len(uploads), len(entries or []))
    if count > MAX_ATTACHMENTS:
        problems.append(
            Problem(
                ("attachments",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_ATTACHMENTS} or fewer in length.",
            )
        )
    return Resolution(result, new, problems)


def referenced_names(
    embeds: Sequence[Mapping[str, Any]],
) -> list[tuple[tuple[str | int, ...], str]]:
    """Every ``attachment://NAME`` an embed list uses: (path of the URL, NAME)."""
    found: list[tuple[tuple[str | int, ...], str]] = []
    for i, embed in enumerate(embeds):
        for slot, key in EMBED_MEDIA_SLOTS:
            url = (embed.get(slot) or {}).get(key)
            if isinstance(url, str) and url.startswith(ATTACHMENT_SCHEME):
                found.append((("embeds", i, slot, key), url[len(ATTACHMENT_SCHEME) :]))
    return found


def check_references(
    embeds: Sequence[Mapping[str, Any]], attachments: Sequence[Mapping[str, Any]]
) -> list[Problem]:
    """``attachment://NAME`` URLs whose NAME is not an attachment of the message."""
    names = {a["filename"] for a in attachments}
    return [
        Problem(
            path,
            "URL_TYPE_INVALID_SCHEME",
            "Scheme \"attachment\" is not supported. Scheme must be one of ('http', 'https')."
            f" (no attachment named {name!r})",
        )
        for path, name in referenced_names(embeds)
        if name not in names
    ]


def link_embeds(
    embeds: Sequence[Mapping[str, Any]], attachments: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The embeds as Discord stores them: ``attachment://NAME`` replaced by the CDN URLs."""
    by_name = {a["filename"]: a for a in attachments}
    linked: list[dict[str, Any]] = []
    for embed in embeds:
        copy = dict(embed)
        for slot, key in EMBED_MEDIA_SLOTS:
            media = copy.get(slot)
            url = (media or {}).get(key)
            if not (isinstance(url, str) and url.startswith(ATTACHMENT_SCHEME)):
                continue
            attachment = by_name.get(url[len(ATTACHMENT_SCHEME) :])
            if attachment is None:
                continue
            media = dict(media or {})
            if key == "url":
                media["url"] = attachment["url"]
                media["proxy_url"] = attachment["proxy_url"]
                for extra in ("width", "height", "content_type"):
                    if extra in attachment:
                        media[extra] = attachment[extra]
                media["flags"] = 0
            else:
                media[key] = attachment["url"]
                media[f"proxy_{key}"] = attachment["proxy_url"]
            copy[slot] = media
        linked.append(copy)
    return linked


def png(width: int, height: int, *, padding: int = 0) -> bytes:
    """A valid PNG of ``width`` x ``height`` (one grey pixel row repeated), plus ``padding``
    bytes in a private ancillary chunk to make it as large as a test needs."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    raw = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    body = chunk(b"IHDR", header)
    if padding:
        body += chunk(b"prVt", b"\x00" * padding)
    body += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body
