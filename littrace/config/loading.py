"""Settings from their layers: ``conf/`` YAML files, ``LITTRACE_`` variables, dotted overrides.

pydantic-settings reads each layer (:class:`~pydantic_settings.YamlConfigSettingsSource` for a
file, :class:`~pydantic_settings.EnvSettingsSource` with :class:`Settings`' ``env_prefix`` and
``env_nested_delimiter`` for the variables); the layers are merged here, one at a time, so that
an unknown key or a bad value names the file or variable that set it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from types import UnionType
from typing import Any, Union, get_args, get_origin

import yaml
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo
from pydantic_settings import EnvSettingsSource, YamlConfigSettingsSource

from littrace.config.base import ConfigError
from littrace.config.settings import InconsistentSetting, Settings

CONF_DIR_VARIABLE = "LITTRACE_CONF_DIR"
DEFAULTS_HEADER = """\
# littrace defaults: the published method (Lit3R, TRACE, IntrAgent; ../shared/seeds) run fully
# offline on CPU with the bundled MiniLM encoder and model-free LLM steps.
# Written from the code (littrace/config, each comment is the field's description) by
# `littrace config defaults > conf/default.yaml`; tests/test_config.py checks it is current.
# Layers, later wins: this file -> conf/profiles/<profile>.yaml -> --config FILE
#   -> LITTRACE_<SECTION>__<FIELD>[__<SUBFIELD>] variables -> dotted overrides.
"""
# A layer: where it came from (a file as shown to the user, a variable's name, "overrides")
# and the nested mapping of settings it sets.
Layer = tuple[str, dict[str, Any]]


def conf_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The configuration directory: ``$LITTRACE_CONF_DIR`` or ``conf/`` beside the package."""
    env = os.environ if environ is None else environ
    override = env.get(CONF_DIR_VARIABLE)
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[2] / "conf"


def defaults_yaml() -> str:
    """The text of ``conf/default.yaml``: the code's defaults, each under its description."""
    return DEFAULTS_HEADER + Settings().to_yaml(described=True)


def available_profiles(environ: Mapping[str, str] | None = None) -> list[str]:
    """Names of the profiles in ``<conf>/profiles/*.yaml``, sorted."""
    return sorted(path.stem for path in (conf_dir(environ) / "profiles").glob("*.yaml"))


def load_settings(
    profile: str | None = None,
    config_file: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Build the settings from defaults, a profile, a file, the environment and overrides.

    Later layers win and mappings merge deeply. Raises :class:`ConfigError` on an unknown
    profile, an unreadable file, an unknown key or an invalid value.
    """
    env = os.environ if environ is None else environ
    conf = conf_dir(env)
    layers: list[Layer] = [_yaml_layer(conf / "default.yaml")]
    if profile is not None:
        names = available_profiles(env)
        if profile not in names:
            raise ConfigError(
                f"unknown profile '{profile}'; available: {', '.join(names) or '(none)'}"
            )
        layers.append(_yaml_layer(conf / "profiles" / f"{profile}.yaml"))
    if config_file is not None:
        layers.append(_yaml_layer(Path(config_file)))
    layers.extend(_env_layers(env))
    layers.extend(
        ("overrides", _nest(key.split("."), value)) for key, value in (overrides or {}).items()
    )

    merged: dict[str, Any] = {}
    origin: dict[tuple[str, ...], str] = {}
    for source, data in layers:
        _merge(merged, data, Settings, (), source, origin)
    try:
        return Settings.model_validate(merged)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, origin)) from None


def _display(path: Path) -> str:
    # Relative to the working directory when possible: 'conf/profiles/gpu.yaml'.
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _yaml_layer(path: Path) -> Layer:
    source = _display(path)
    try:
        path.open("rb").close()  # the source reads a missing file as empty; a named one must exist
    except OSError as exc:
        raise ConfigError(f"{source}: cannot read config file ({exc.strerror})") from None
    try:
        data = YamlConfigSettingsSource(Settings, yaml_file=path)()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = str(getattr(exc, "problem", None) or exc).splitlines()[0]
        raise ConfigError(f"{source}{where}: invalid YAML: {problem}") from None
    except (TypeError, ValueError):
        raise ConfigError(f"{source}: expected a mapping of settings") from None
    return source, data


class _EnvironSource(EnvSettingsSource):
    """The settings one mapping of variables sets, named by :class:`Settings`' ``env_prefix``
    and ``env_nested_delimiter``; values are read as YAML (``[1, 3]``, ``null``), and text
    fields keep text YAML would retype (a run id ``2024``)."""

    def __init__(self, variables: Mapping[str, str]) -> None:
        self._variables = variables
        super().__init__(Settings)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        # Values YAML reads as null ("", "~", "null") set the field to None.
        return {
            name.lower(): None if _read_yaml(value) is None else value
            for name, value in self._variables.items()
        }

    def decode_complex_value(self, field_name: str, field: FieldInfo, value: Any) -> Any:
        return _read_yaml(value)


def _read_yaml(value: str) -> Any:
    """A variable's value as YAML; text that is not YAML stays text, for validation to name."""
    try:
        return yaml.safe_load(value)
    except yaml.YAMLError:
        return value


def _env_layers(environ: Mapping[str, str]) -> list[Layer]:
    """One layer per ``LITTRACE_<SECTION>__<FIELD>`` variable, so each error names its variable."""
    prefix = str(Settings.model_config.get("env_prefix", "")).upper()
    delimiter = str(Settings.model_config.get("env_nested_delimiter", ""))
    layers = []
    # Sorted so that two spellings of one key resolve the same way on every run.
    for name in sorted(environ):
        if not name.upper().startswith(prefix) or delimiter not in name:
            continue
        _check_known(name[len(prefix) :].lower().split(delimiter), name)
        layers.append((name, _EnvironSource({name: environ[name]})()))
    return layers


def _check_known(path: list[str], source: str) -> None:
    # The environment source skips names that match no field; a misspelt variable is an error.
    model: type[BaseModel] | None = Settings
    for depth, part in enumerate(path):
        field = model.model_fields.get(part) if model is not None else None
        if field is None:
            raise ConfigError(f"{source}: unknown key '{'.'.join(path[: depth + 1])}'")
        model = _model_of(field.annotation)


def _nest(path: list[str], value: Any) -> dict[str, Any]:
    nested: Any = value
    for part in reversed(path):
        nested = {part: nested}
    result: dict[str, Any] = nested
    return result


def _merge(
    target: dict[str, Any],
    data: Mapping[Any, Any],
    model: type[BaseModel],
    prefix: tuple[str, ...],
    source: str,
    origin: dict[tuple[str, ...], str],
) -> None:
    """Deep-merge one layer into ``target``, rejecting unknown keys and noting each leaf's source."""
    for key, value in data.items():
        path = (*prefix, str(key))
        field = model.model_fields.get(key) if isinstance(key, str) else None
        if field is None:
            raise ConfigError(f"{source}: unknown key '{'.'.join(path)}'")
        section = _model_of(field.annotation)
        if section is not None and isinstance(value, Mapping):
            if not isinstance(target.get(key), dict):
                target[key] = {}
            _merge(target[key], value, section, path, source, origin)
            continue
        target[key] = value
        # The value replaces everything below it; re-inserting keeps origin in layer order.
        for stale in [known for known in origin if known[: len(path)] == path]:
            del origin[stale]
        origin[path] = source


def _describe(exc: ValidationError, origin: Mapping[tuple[str, ...], str]) -> str:
    problems = []
    for error in exc.errors():
        cause = (error.get("ctx") or {}).get("error")
        if isinstance(cause, InconsistentSetting):
            # Blame whichever of the conflicting keys was set last: that edit broke the pair.
            involved = [tuple(key.split(".")) for key in cause.keys]
            loc: tuple[str | int, ...] = involved[0]
            source = max((_origin_of(keys, origin) for keys in involved), key=lambda o: o[0])[1]
            reason = cause.reason
        else:
            loc = tuple(error["loc"])
            source = _origin_of(tuple(part for part in loc if isinstance(part, str)), origin)[1]
            reason = error["msg"]
            if not isinstance(error["input"], dict):
                reason += f" (got {error['input']!r})"
        shown = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)
        problems.append(f"{source}: invalid value for '{shown[1:]}': {reason}")
    return "; ".join(problems)


def _origin_of(keys: tuple[str, ...], origin: Mapping[tuple[str, ...], str]) -> tuple[int, str]:
    """The layer that set ``keys`` as (position in layer order, source); -1 for code defaults."""
    order = {path: position for position, path in enumerate(origin)}
    for size in range(len(keys), 0, -1):
        if keys[:size] in origin:
            return order[keys[:size]], origin[keys[:size]]
    # A section-level error: blame the last layer that set anything inside the section.
    inside = [path for path in origin if path[: len(keys)] == keys]
    if inside:
        return order[inside[-1]], origin[inside[-1]]
    return -1, "built-in defaults"


def _members(annotation: Any) -> tuple[Any, ...]:
    if get_origin(annotation) in (Union, UnionType):
        return get_args(annotation)
    return (annotation,)


def _model_of(annotation: Any) -> type[BaseModel] | None:
    for member in _members(annotation):
        if isinstance(member, type) and issubclass(member, BaseModel):
            return member
    return None
