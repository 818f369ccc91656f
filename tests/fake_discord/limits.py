"""Discord's hard limits (LIMITS.md), checked on every outgoing body the fake receives.

Each checker returns a list of :class:`Problem`; the server turns a non-empty list into
the 400 / 50035 "Invalid Form Body" answer Discord gives, with the nested ``errors`` tree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

MAX_CONTENT = 2000
MAX_NONCE = 25
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER_TEXT = 2048
MAX_AUTHOR_NAME = 256
MAX_ACTION_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_COMMANDS = 100
MAX_COMMAND_NAME = 32
MAX_COMMAND_DESCRIPTION = 100
MAX_COMMAND_OPTIONS = 25
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100
MAX_CHOICE_VALUE = 100
MAX_AUTOCOMPLETE_CHOICES = 25
MAX_MODAL_TITLE = 45

SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
"""Component types of the select menus (string, user, role, mentionable, channel)."""

_COMMAND_NAME = re.compile(rf"^[-_'\w]{{1,{MAX_COMMAND_NAME}}}$")
#: User and message commands (a member's or a message's Apps menu) may have spaces and
#: capitals in their names.
_MENU_NAME = re.compile(rf"^[-_'\w][-_' \w]{{0,{MAX_COMMAND_NAME - 1}}}$")


@dataclass(frozen=True)
class Problem:
    """One broken limit: where in the body (``path``), Discord's error code, and a message."""

    path: tuple[str | int, ...]
    code: str
    message: str

    @property
    def dotted(self) -> str:
        """The path as ``embeds.0.title``."""
        return ".".join(str(p) for p in self.path) or "<body>"


def _max_len(path: tuple[str | int, ...], value: Any, limit: int) -> list[Problem]:
    if isinstance(value, str) and len(value) > limit:
        return [Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")]
    return []


def _len_between(path: tuple[str | int, ...], value: Any, low: int, high: int) -> list[Problem]:
    if not isinstance(value, str) or not low <= len(value) <= high:
        return [
            Problem(
                path,
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between {low} and {high} in length (got {value!r:.40}).",
            )
        ]
    return []


def embed_size(embed: Mapping[str, Any]) -> int:
    """The characters Discord counts towards the 6000 total (the same as ``len(discord.Embed)``)."""
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    for field in embed.get("fields") or []:
        size += len(field.get("name") or "") + len(field.get("value") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    return size


def check_embeds(embeds: Sequence[Mapping[str, Any]]) -> list[Problem]:
    """The per-embed and per-message embed limits."""
    problems: list[Problem] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append(
            Problem(
                ("embeds",), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length."
            )
        )
    for i, embed in enumerate(embeds):
        at: tuple[str | int, ...] = ("embeds", i)
        problems += _max_len((*at, "title"), embed.get("title"), MAX_EMBED_TITLE)
        problems += _max_len((*at, "description"), embed.get("description"), MAX_EMBED_DESCRIPTION)
        fields = embed.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            problems.append(
                Problem(
                    (*at, "fields"),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_EMBED_FIELDS} or fewer in length.",
                )
            )
        for j, field in enumerate(fields):
            name, value = field.get("name"), field.get("value")
            problems += _len_between((*at, "fields", j, "name"), name, 1, MAX_FIELD_NAME)
            problems += _len_between((*at, "fields", j, "value"), value, 1, MAX_FIELD_VALUE)
        problems += _max_len(
            (*at, "footer", "text"), (embed.get("footer") or {}).get("text"), MAX_FOOTER_TEXT
        )
        problems += _max_len(
            (*at, "author", "name"), (embed.get("author") or {}).get("name"), MAX_AUTHOR_NAME
        )
    total = sum(embed_size(e) for e in embeds)
    if total > MAX_EMBED_TOTAL:
        problems.append(
            Problem(
                ("embeds",),
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL} (got {total}).",
            )
        )
    return problems


def _check_interactive(
    path: tuple[str | int, ...], component: Mapping[str, Any], seen: set[str]
) -> list[Problem]:
    """Limits of one button or select: custom_id, label, options."""
    problems: list[Problem] = []
    kind = component.get("type")
    if kind == 2 and component.get("style") in (5, 6):
        pass  # link and premium buttons carry a url / sku_id, never a custom_id
    else:
        custom_id = component.get("custom_id")
        problems += _len_between((*path, "custom_id"), custom_id, 1, MAX_CUSTOM_ID)
        if isinstance(custom_id, str):
            if custom_id in seen:
                problems.append(
                    Problem(
                        (*path, "custom_id"),
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        f"Component custom id cannot be duplicated ({custom_id!r}).",
                    )
                )
            seen.add(custom_id)
    if kind == 2:
        problems += _max_len((*path, "label"), component.get("label"), MAX_BUTTON_LABEL)
    elif kind in SELECT_TYPES:
        problems += _max_len((*path, "placeholder"), component.get("placeholder"), MAX_PLACEHOLDER)
        for bound in ("min_values", "max_values"):
            value = component.get(bound)
            if value is not None and not 0 <= value <= MAX_SELECT_OPTIONS:
                problems.append(
                    Problem(
                        (*path, bound),
                        "NUMBER_TYPE_MAX",
                        f"int value should be between 0 and {MAX_SELECT_OPTIONS}.",
                    )
                )
        if kind == 3:
            options = component.get("options") or []
            if not 1 <= len(options) <= MAX_SELECT_OPTIONS:
                problems.append(
                    Problem(
                        (*path, "options"),
                        "BASE_TYPE_BAD_LENGTH",
                        f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
                    )
                )
            values = [o.get("value") for o in options]
            if len(set(values)) != len(values):
                problems.append(
                    Problem(
                        (*path, "options"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Select component option values must be unique.",
                    )
                )
            for k, option in enumerate(options):
                at = (*path, "options", k)
                problems += _len_between((*at, "label"), option.get("label"), 1, MAX_OPTION_TEXT)
                problems += _len_between((*at, "value"), option.get("value"), 1, MAX_OPTION_TEXT)
                problems += _max_len(
                    (*at, "description"), option.get("description"), MAX_OPTION_TEXT
                )
    return problems


def check_components(components: Sequence[Mapping[str, Any]], flags: int = 0) -> list[Problem]:
    """Classic components: at most 5 action rows of 5 buttons or exactly 1 select each.

    With the components-v2 flag only the custom_id, label and option limits are checked.
    """
    problems: list[Problem] = []
    seen: set[str] = set()
    if flags & (1 << 15):
        return _check_v2(("components",), components, seen)
    if len(components) > MAX_ACTION_ROWS:
        problems.append(
            Problem(
                ("components",),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_ACTION_ROWS} or fewer in length.",
            )
        )
    for i, row in enumerate(components):
        at: tuple[str | int, ...] = ("components", i)
        if row.get("type") != 1:
            problems.append(
                Problem(at, "UNION_TYPE_CHOICES", "Top-level components must be action rows.")
            )
            continue
        children = row.get("components") or []
        kinds = [c.get("type") for c in children]
        selects = sum(1 for k in kinds if k in SELECT_TYPES)
        if not children:
            problems.append(
                Problem((*at, "components"), "BASE_TYPE_BAD_LENGTH", "Must be 1 or more in length.")
            )
        elif selects and len(children) != 1:
            problems.append(
                Problem(
                    (*at, "components"),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "A select menu must be alone in its action row.",
                )
            )
        elif len(children) > MAX_ROW_BUTTONS:
            problems.append(
                Problem(
                    (*at, "components"),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_ROW_BUTTONS} or fewer in length.",
                )
            )
        for j, child in enumerate(children):
            problems += _check_interactive((*at, "components", j), child, seen)
    return problems


def _check_v2(
    path: tuple[str | int, ...], components: Iterable[Mapping[str, Any]], seen: set[str]
) -> list[Problem]:
    problems: list[Problem] = []
    for i, component in enumerate(components):
        at = (*path, i)
        if component.get("type") == 2 or component.get("type") in SELECT_TYPES:
            problems += _check_interactive(at, component, seen)
        problems += _check_v2((*at, "components"), component.get("components") or [], seen)
        accessory = component.get("accessory")
        if accessory:
            problems += _check_v2((*at, "accessory"), [accessory], seen)
    return problems


def check_message(body: Mapping[str, Any]) -> list[Problem]:
    """A create/edit message body (channel message, interaction response data, webhook)."""
    problems = _max_len(("content",), body.get("content"), MAX_CONTENT)
    if body.get("nonce") is not None:
        problems += _max_len(("nonce",), str(body["nonce"]), MAX_NONCE)
    problems += check_embeds(body.get("embeds") or [])
    problems += check_components(body.get("components") or [], int(body.get("flags") or 0))
    return problems


def check_interaction_callback(body: Mapping[str, Any]) -> list[Problem]:
    """An interaction callback body ``{"type", "data"}``."""
    kind = body.get("type")
    data = body.get("data") or {}
    if kind in (4, 7):
        return [Problem(("data", *p.path), p.code, p.message) for p in check_message(data)]
    if kind == 8:
        choices = data.get("choices") or []
        if len(choices) > MAX_AUTOCOMPLETE_CHOICES:
            return [
                Problem(
                    ("data", "choices"),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_AUTOCOMPLETE_CHOICES} or fewer in length.",
                )
            ]
    if kind == 9:
        problems = _len_between(("data", "title"), data.get("title"), 1, MAX_MODAL_TITLE)
        problems += _len_between(("data", "custom_id"), data.get("custom_id"), 1, MAX_CUSTOM_ID)
        return problems
    return []


def _check_options(
    path: tuple[str | int, ...], options: Sequence[Mapping[str, Any]]
) -> list[Problem]:
    problems: list[Problem] = []
    if len(options) > MAX_COMMAND_OPTIONS:
        problems.append(
            Problem(
                path, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_COMMAND_OPTIONS} or fewer in length."
            )
        )
    required_done = False
    for i, option in enumerate(options):
        at = (*path, i)
        problems += _check_name_description(at, option, chat_input=True)
        if option.get("type") in (1, 2):
            problems += _check_options((*at, "options"), option.get("options") or [])
            continue
        if option.get("required"):
            if required_done:
                problems.append(
                    Problem(
                        (*at, "required"),
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options.",
                    )
                )
        else:
            required_done = True
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            problems.append(
                Problem(
                    (*at, "choices"),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_CHOICES} or fewer in length.",
                )
            )
        for k, choice in enumerate(choices):
            problems += _len_between(
                (*at, "choices", k, "name"), choice.get("name"), 1, MAX_CHOICE_NAME
            )
            problems += _max_len(
                (*at, "choices", k, "value"), choice.get("value"), MAX_CHOICE_VALUE
            )
    return problems


def _check_name_description(
    path: tuple[str | int, ...], item: Mapping[str, Any], *, chat_input: bool
) -> list[Problem]:
    problems: list[Problem] = []
    name = item.get("name")
    shape = _COMMAND_NAME if chat_input else _MENU_NAME
    if (
        not isinstance(name, str)
        or not shape.match(name)
        or (chat_input and name != name.lower())
    ):
        wanted = ("1-32 lowercase letters, digits, - or _" if chat_input
                  else "1-32 letters, digits, spaces, - or _")
        problems.append(
            Problem(
                (*path, "name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                f"Command name is invalid ({name!r}): {wanted}.",
            )
        )
    if chat_input:
        problems += _len_between(
            (*path, "description"), item.get("description"), 1, MAX_COMMAND_DESCRIPTION
        )
    return problems


def check_commands(commands: Sequence[Mapping[str, Any]]) -> list[Problem]:
    """A bulk-overwrite body: the list of application commands of one scope."""
    problems: list[Problem] = []
    chat_inputs = [c for c in commands if c.get("type", 1) == 1]
    if len(chat_inputs) > MAX_COMMANDS:
        problems.append(
            Problem((), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_COMMANDS} or fewer in length.")
        )
    names = [(c.get("type", 1), c.get("name")) for c in commands]
    if len(set(names)) != len(names):
        problems.append(
            Problem(
                (),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique.",
            )
        )
    for i, command in enumerate(commands):
        chat_input = command.get("type", 1) == 1
        problems += _check_name_description((i,), command, chat_input=chat_input)
        problems += _check_options((i, "options"), command.get("options") or [])
    return problems


def errors_tree(problems: Iterable[Problem]) -> dict[str, Any]:
    """Discord's nested ``errors`` object: path keys down to ``{"_errors": [...]}``."""
    tree: dict[str, Any] = {}
    for problem in problems:
        node = tree
        for part in problem.path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return tree
