"""The strict reading of set files shared by every game system (engine.core.cardjson)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine.ascension import cards as ascension
from engine.ascension import setdata as ascension_setdata
from engine.core import cardjson
from engine.core.cardjson import CardDataError, Checker, read_json, set_files, set_header
from engine.voskhozhdenie import loader as voskhozhdenie
from engine.voskhozhdenie import setdata as voskhozhdenie_setdata

SET = {
    "code": "T1",
    "name": {"ru": "Проба", "en": "Trial"},
    "released": "2026-01-10",
    "cards": [
        {"number": 1, "name": {"ru": "Первая", "en": "First"}, "cost": 2},
        {
            "number": 2,
            "name": {"ru": "Вторая", "en": "Second"},
            "cost": 3,
            "abilities": [{"kind": "play", "effects": [{"op": "draw"}]}],
        },
    ],
}
CARD_FIELDS = {"number", "name", "cost", "abilities"}


def read_cards(path: Path) -> list[dict]:
    """A miniature game system: its own card fields, the shared checks."""
    check = Checker(cardjson.display(path))
    header = set_header(read_json(path, check), {"code", "name", "released", "cards"}, check)
    cards = []
    for raw in header.cards:
        number = check.integer(raw.get("number"), "number", minimum=1)
        check.at_card(header.code, number, raw["name"]["ru"])
        check.unknown(raw, CARD_FIELDS)
        check.required(raw, ("name", "cost"))
        check.integer(raw["cost"], "cost")
        cards.append(raw)
    return cards


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t1.json"
    path.write_text(text, encoding="utf-8")
    return path


def error_of(path: Path) -> CardDataError:
    with pytest.raises(CardDataError) as info:
        read_cards(path)
    return info.value


def test_a_valid_file_reads(tmp_path):
    assert len(read_cards(write(tmp_path, json.dumps(SET)))) == 2


def test_a_key_given_twice_is_refused_naming_the_file_the_card_and_the_field(tmp_path):
    text = json.dumps(SET, ensure_ascii=False).replace('"cost": 3', '"cost": 3, "cost": 4')
    err = error_of(write(tmp_path, text))
    assert err.source.endswith("t1.json")
    assert err.card == "T1-002 «Вторая»" and err.field == "cost"
    assert str(err) == (
        f"{err.source}: card T1-002 «Вторая»: cost: the key 'cost' appears twice in one object"
    )


def test_a_key_given_twice_deep_in_a_card_names_its_path(tmp_path):
    text = json.dumps(SET, ensure_ascii=False).replace('"op": "draw"', '"op": "draw", "op": "x"')
    err = error_of(write(tmp_path, text))
    assert err.card == "T1-002 «Вторая»"
    assert err.field == "abilities[0].effects[0].op"
    assert "'op' appears twice" in str(err)


def test_a_key_given_twice_in_the_set_names_the_file_and_the_field(tmp_path):
    text = json.dumps(SET, ensure_ascii=False).replace('"code": "T1"', '"code": "T1", "code": "T2"')
    err = error_of(write(tmp_path, text))
    assert err.card is None and err.field == "code"
    assert str(err) == f"{err.source}: code: the key 'code' appears twice in one object"


def test_an_unknown_field_is_refused_naming_the_file_the_card_and_the_field(tmp_path):
    data = copy.deepcopy(SET)
    data["cards"][0]["power"] = 3
    err = error_of(write(tmp_path, json.dumps(data, ensure_ascii=False)))
    assert err.card == "T1-001 «Первая»"
    assert str(err) == f"{err.source}: card T1-001 «Первая»: unknown field(s) power"


def test_an_unknown_field_of_the_set_is_refused(tmp_path):
    data = dict(SET, extra=1)
    err = error_of(write(tmp_path, json.dumps(data, ensure_ascii=False)))
    assert err.card is None and "unknown field(s) extra" in str(err)


def test_a_wrong_type_is_refused_naming_the_file_the_card_and_the_field(tmp_path):
    data = copy.deepcopy(SET)
    data["cards"][1]["cost"] = "3"
    err = error_of(write(tmp_path, json.dumps(data, ensure_ascii=False)))
    assert (err.card, err.field) == ("T1-002 «Вторая»", "cost")
    assert str(err) == f"{err.source}: card T1-002 «Вторая»: cost: must be an integer, not '3'"
    data["cards"][1]["cost"] = True  # a boolean is not an integer
    assert error_of(write(tmp_path, json.dumps(data))).field == "cost"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"code": ', "not valid JSON"),
        ("[1, 2]", "a set file holds one JSON object"),
    ],
)
def test_a_file_that_is_not_a_set_names_the_file(tmp_path, text, words):
    err = error_of(write(tmp_path, text))
    assert str(err).startswith(f"{err.source}: ") and words in str(err)


def test_a_missing_file_and_bad_text_name_the_file(tmp_path):
    with pytest.raises(CardDataError, match=r"nothing\.json: no such file"):
        read_json(tmp_path / "nothing.json", Checker("nothing.json"))
    path = tmp_path / "latin1.json"
    path.write_bytes('{"name": "é"}'.encode("latin-1"))
    with pytest.raises(CardDataError, match="not UTF-8"):
        read_json(path, Checker("latin1.json"))


def test_set_files_skip_the_underscore_files(tmp_path):
    for name in ("b.json", "a.json", "_formats.json", "notes.txt"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    assert [p.name for p in set_files(tmp_path)] == ["a.json", "b.json"]


# ---------------------------------------------------------------- both game systems


def test_both_systems_share_the_error_type():
    assert voskhozhdenie.CardDataError is CardDataError
    assert ascension.CardDataError is CardDataError


def test_both_systems_still_load_their_sets():
    db = voskhozhdenie.load_system("voskhozhdenie")
    assert [s.code for s in db.sets] == ["VS0", "VS1", "VS2", "VS3", "VS4"]
    assert all(s.source.startswith("engine/sets/voskhozhdenie/vs") for s in db.sets)
    assert len(db.all_cards()) > 300
    asc = ascension.load_system()
    assert [s.code for s in asc.sets] == ["ASC1"]
    assert len(asc.cards) == len(ascension_setdata.build()["cards"])


def test_both_generators_write_the_committed_files():
    for name, text in voskhozhdenie_setdata.render_all().items():
        path = voskhozhdenie_setdata.OUT_DIR / name
        assert path.read_text(encoding="utf-8") == text, name
    assert ascension_setdata.OUT.read_text(encoding="utf-8") == ascension_setdata.dumps()


@pytest.mark.parametrize("system", ["voskhozhdenie", "ascension"])
def test_a_key_given_twice_is_refused_by_both_systems(tmp_path, system):
    if system == "voskhozhdenie":
        source = voskhozhdenie_setdata.OUT_DIR / "vs0.json"
        load = voskhozhdenie.load_set
    else:
        source = ascension_setdata.OUT
        load = ascension.load_set
    data = json.loads(source.read_text(encoding="utf-8"))
    first = data["cards"][0]
    text = json.dumps(data, ensure_ascii=False, indent=1)
    number = f'"number": {first["number"]},'
    assert text.count(number) == 1
    path = tmp_path / "copy.json"
    path.write_text(text.replace(number, number + number, 1), encoding="utf-8")
    with pytest.raises(CardDataError) as info:
        load(path)
    card = f"{data['code']}-{first['number']:03d} «{first['name']['ru']}»"
    assert (info.value.card, info.value.field) == (card, "number")
    assert "copy.json" in info.value.source
