"""The vault commands as a user runs them: init, add, list, show, edit, search, the lifecycle,
relations, decay, audit, stats — every `--json` output parsed and checked.

Sections cited: PAM §5 (types), §6 (dedup), §7.1 (lifecycle), §8 (decay), §9 (access), §13
(relations); AIMEM §5.1 (DNA class).
"""

from __future__ import annotations

import itertools
import json
import uuid
from pathlib import Path

import pytest

from clikit import SAMPLES, home, ids, mv, ok, refused, sample_vault, snapshot
from memvault.canonical import content_hash
from memvault.model import MEMORY_TYPES, Memory
from memvault.vault import Vault
from vaultkit import PASSPHRASE, assert_valid_pam, pam_memory

__all__ = ["home", "ids", "sample_vault"]  # fixtures


def listed(*args: str) -> list[dict[str, object]]:
    payload = ok("list", "--limit", "0", *args, "--json").json()
    assert payload["total"] == len(payload["memories"])
    memories: list[dict[str, object]] = payload["memories"]
    return memories


def found(query: str, *args: str) -> list[str]:
    payload = ok("search", query, *args, "--json").json()
    assert payload["query"] == query
    return [hit["memory"]["id"] for hit in payload["results"]]


# -- init ---------------------------------------------------------------------------------------


def test_init_creates_the_vault_and_owner(home: Path) -> None:
    run = ok("init")
    assert "Created an encrypted vault" in run.stdout and str(home) in run.stdout
    stats = ok("stats", "--json").json()
    assert stats["memories"] == 0 and stats["audit_entries"] == 1
    assert str(uuid.UUID(stats["owner_id"])) == stats["owner_id"]
    assert stats["owner_id"] in run.stdout
    assert (home / "vault.db").is_file()


def test_init_with_owner_id_and_did(home: Path) -> None:
    owner = str(uuid.uuid4())
    did = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"
    payload = ok("init", "--owner-id", owner, "--did", did, "--json").json()
    assert payload == {"home": str(home), "owner_id": owner, "did": did}
    with Vault.open(home, PASSPHRASE) as vault:
        assert vault.owner.id == owner and vault.owner.did == did


# -- add ----------------------------------------------------------------------------------------


def test_twenty_memories_of_every_type(ids: dict[str, str]) -> None:
    memories = listed("--status", "all")
    assert len(memories) == 20 == len(set(ids.values()))
    assert {m["type"] for m in memories} == set(MEMORY_TYPES)
    by_id = {m["id"]: m for m in memories}
    assert by_id[ids["sqlcipher"]]["custom_type"] == "decision"
    assert by_id[ids["recipe"]]["custom_type"] == "recipe"
    assert by_id[ids["lisbon"]]["tags"] == ["home", "city"]
    assert by_id[ids["name"]]["summary"] == "Marina"
    assert by_id[ids["allergy"]]["access"]["exportable"] is False
    macos = by_id[ids["macos"]]
    assert macos["provenance"]["platform"] == "claude"
    assert macos["confidence"]["initial"] == 0.6
    assert macos["confidence"]["decay_model"] == "time_linear"
    # DNA-class memories get no decay by default (AIMEM §5.1).
    assert by_id[ids["name"]]["confidence"]["decay_model"] == "none"
    for memory in memories:
        assert memory["content_hash"] == content_hash(str(memory["content"]))
    assert_valid_pam(Memory.from_json(m) for m in memories)
    stats = ok("stats", "--json").json()
    assert stats["memories"] == 20
    assert stats["by_type"]["custom:decision"] == 1 and stats["by_type"]["fact"] == 3
    assert stats["by_type"]["custom:recipe"] == 1 and "custom" not in stats["by_type"]
    assert stats["by_platform"] == {"manual": 19, "claude": 1}


def test_add_reports_created_then_reinforced(home: Path) -> None:
    ok("init")
    first = ok("add", "Prefers tea over coffee", "--type", "preference")
    assert first.stdout.startswith("✓ Added memory")
    again = ok("add", "Prefers tea over coffee", "--type", "preference", "--tag", "drinks")
    assert "Reinforced memory" in again.stdout and "PAM §6" in again.stdout


def test_same_content_twice_reinforces_one_memory(home: Path) -> None:
    ok("init")
    one = ok("add", "User lives in Lisbon", "-t", "fact", "--json").json()
    two = ok("add", "  User lives in Lisbon ", "-t", "fact", "--tag", "city", "--json").json()
    assert (one["created"], one["reinforced"]) == (True, False)
    assert (two["created"], two["reinforced"]) == (False, True)
    assert two["memory"]["id"] == one["memory"]["id"]
    assert two["memory"]["confidence"]["current"] > one["memory"]["confidence"]["current"]
    assert two["memory"]["confidence"]["last_reinforced"] is not None
    assert two["memory"]["tags"] == ["city"]
    assert len(listed()) == 1
    actions = [e["action"] for e in ok("audit", "--json").json()]
    assert actions == ["init", "add", "reinforce"]


def test_add_reads_content_from_stdin(home: Path) -> None:
    ok("init")
    payload = ok("add", "-", "-t", "fact", "--json", input="Lives in Porto\n").json()
    assert payload["memory"]["content"] == "Lives in Porto\n"


# -- list ---------------------------------------------------------------------------------------


def test_list_filters(ids: dict[str, str]) -> None:
    def keys(*args: str) -> set[str]:
        names = {v: k for k, v in ids.items()}
        return {names[str(m["id"])] for m in listed(*args)}

    assert keys("--type", "fact") == {"lisbon", "lisboa", "allergy"}
    assert keys("-t", "goal", "-t", "identity") == {"marathon", "guitar", "name"}
    assert keys("--type", "custom", "--custom-type", "recipe") == {"recipe"}
    assert keys("--tag", "code") == {"python", "debian", "memvault"}
    assert keys("--tag", "code", "--tag", "work") == {"memvault"}  # all tags must match
    assert keys("--platform", "claude") == {"macos"}
    assert len(keys("--since", "2000-01-01")) == 20
    assert keys("--since", "2999-01-01T00:00:00Z") == set()
    assert keys("--status", "retracted") == set()
    assert len(keys("--status", "all")) == 20


def test_list_filters_by_confidence_pam_8(ids: dict[str, str]) -> None:
    """--min-confidence/--max-confidence bound the stored confidence.current (inclusive)."""
    names = {v: k for k, v in ids.items()}
    assert {names[str(m["id"])] for m in listed("--max-confidence", "0.7")} == {"macos"}
    assert len(listed("--min-confidence", "0.7")) == 19
    assert {
        names[str(m["id"])] for m in listed("--min-confidence", "0.6", "-t", "environment")
    } == {
        "macos",
        "debian",
    }
    table = ok("list", "--max-confidence", "0.6").stdout
    assert "Work laptop runs macOS" in table and "0.6" in table
    crossed = refused("list", "--min-confidence", "0.9", "--max-confidence", "0.1", code=2)
    assert "min_confidence 0.9 is above max_confidence 0.1" in crossed
    assert "--min-confidence" in refused("list", "--min-confidence", "1.5", code=2)


def test_list_pages_newest_first(ids: dict[str, str]) -> None:
    first = ok("list", "--limit", "8", "--json").json()
    second = ok("list", "--limit", "8", "--offset", "8", "--json").json()
    third = ok("list", "--limit", "8", "--offset", "16", "--json").json()
    assert first["total"] == second["total"] == third["total"] == 20
    assert (first["limit"], second["offset"]) == (8, 8)
    pages = [[m["id"] for m in p["memories"]] for p in (first, second, third)]
    assert [len(p) for p in pages] == [8, 8, 4]
    seen = pages[0] + pages[1] + pages[2]
    assert sorted(seen) == sorted(ids.values())
    assert seen[-1] == ids["lisbon"]  # the first one added comes last
    table = ok("list", "--limit", "8").stdout
    assert "1–8 of 20; --offset 8 for more" in table
    assert ids["allergy"][:8] in table and "Allergic to penicillin" in table


def test_list_of_an_empty_vault(home: Path) -> None:
    ok("init")
    assert "No memories match." in ok("list").stdout
    assert ok("list", "--json").json() == {"total": 0, "offset": 0, "limit": 50, "memories": []}


# -- search -------------------------------------------------------------------------------------


def test_search_english_and_portuguese_with_and_without_accents(ids: dict[str, str]) -> None:
    assert found("acao") == [ids["acao"]]
    assert found("ação") == [ids["acao"]]
    assert found("associacao bairro") == [ids["acao"]]
    assert found("Lisboa") == found("lisboa") == found("LISBOA") == [ids["lisboa"]]
    assert found("lisbon") == [ids["lisbon"]]
    assert found("sao paulo") == found("São Paulo") == [ids["saopaulo"]]
    assert found("reunioes manha") == [ids["morning"]]
    assert found("pao de queijo") == [ids["recipe"]]
    assert set(found("portugues*")) == {ids["languages"], ids["guitar"], ids["answer"]}
    assert found("penicillin") == [ids["allergy"]]
    assert found("nothing-like-this") == []


def test_search_applies_filters_and_ranks(ids: dict[str, str]) -> None:
    assert found("lisboa", "--type", "goal") == []
    assert found("code", "--tag", "work") == [ids["memvault"]]
    assert found("vault") == [ids["memvault"], ids["sqlcipher"]] or set(found("vault")) == {
        ids["memvault"],
        ids["sqlcipher"],
    }
    payload = ok("search", "vault", "--json").json()
    scores = [hit["score"] for hit in payload["results"]]
    assert scores == sorted(scores, reverse=True) and all(s > 0 for s in scores)
    newest = ok("search", "vault", "--newest", "--json").json()
    assert [h["memory"]["id"] for h in newest["results"]] == [ids["sqlcipher"], ids["memvault"]]
    table = ok("search", "acao").stdout
    assert "Score" in table and "ação" in table and "1 match" in table
    assert "No memories match" in ok("search", "zzzz").stdout


def test_search_finds_retracted_only_when_asked(ids: dict[str, str]) -> None:
    ok("retract", ids["acao"])
    assert found("acao") == []
    assert found("acao", "--status", "retracted") == [ids["acao"]]
    assert found("acao", "--status", "all") == [ids["acao"]]


# -- show ---------------------------------------------------------------------------------------


def test_show_by_unique_prefix(ids: dict[str, str]) -> None:
    full = ids["lisboa"]
    payload = ok("show", full[:8], "--json").json()
    assert payload["memory"]["id"] == full and payload["relations"] == []
    assert payload["memory"]["content"] == "O utilizador mora em Lisboa desde 2019"
    text = ok("show", full[:10]).stdout
    for expected in (full, "O utilizador mora em Lisboa desde 2019", "content_hash", "private"):
        assert expected in text
    assert "No relations." in text


def test_show_ambiguous_prefix_lists_the_candidates(ids: dict[str, str]) -> None:
    by_first: dict[str, list[str]] = {}
    for memory_id in ids.values():
        by_first.setdefault(memory_id[0], []).append(memory_id)
    prefix, clash = next((p, c) for p, c in by_first.items() if len(c) > 1)  # 20 ids, 16 digits
    message = refused("show", prefix, code=2)
    assert "matches several memories" in message and "type more of the id" in message
    assert all(candidate in message for candidate in clash)
    assert message.count("\n") == 1


def test_unknown_id(ids: dict[str, str]) -> None:
    for command in (["show", "zzzz"], ["retract", "zzzz"], ["edit", "zzzz", "--tag", "x"]):
        assert "no memory with id or id prefix 'zzzz'" in refused(*command)


def test_tables_show_prefixes_that_resolve(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ids that share a long prefix (imported ones often do) are shown long enough to be typed
    back, like git's abbreviated hashes."""
    monkeypatch.setenv("COLUMNS", "200")
    ok("init")
    twins = [f"9b2e7c4a-1d3f-4a6b-8c9d-0e1f2a3b4c{n:02d}" for n in (1, 2)]
    with Vault.open(home, PASSPHRASE) as vault:
        vault.add_memories([pam_memory(f"memory {i}", id=i) for i in twins])
    table = ok("list").stdout
    assert all(t in table for t in twins)
    assert ok("show", twins[1], "--json").json()["memory"]["id"] == twins[1]


# -- edit ---------------------------------------------------------------------------------------


def test_edit_content_gets_a_new_content_hash(ids: dict[str, str]) -> None:
    target = ids["marathon"]
    before = ok("show", target, "--json").json()["memory"]
    run = ok("edit", target[:8], "--content", "Wants to run a full marathon in 2027")
    assert "content, content_hash" in run.stdout
    after = ok("show", target, "--json").json()["memory"]
    assert after["content"] == "Wants to run a full marathon in 2027"
    assert after["content_hash"] == content_hash("Wants to run a full marathon in 2027")
    assert after["content_hash"] != before["content_hash"]
    assert before["temporal"]["updated_at"] is None and after["temporal"]["updated_at"]
    entry = ok("audit", "--memory", target, "--json").json()[-1]
    assert entry["action"] == "update" and entry["content_hash"] == after["content_hash"]
    assert entry["details"]["previous_content_hash"] == before["content_hash"]
    assert found("full marathon") == [target]


def test_edit_type_summary_and_tags(ids: dict[str, str]) -> None:
    target = ids["talk"]

    def memory() -> dict[str, object]:
        result: dict[str, object] = ok("show", target, "--json").json()["memory"]
        return result

    ok("edit", target, "--type", "project", "--summary", "Talk")
    assert (memory()["type"], memory()["summary"]) == ("project", "Talk")
    ok("edit", target, "--type", "custom", "--custom-type", "event")
    assert (memory()["type"], memory()["custom_type"]) == ("custom", "event")
    ok("edit", target, "--tag", "talks", "--tag", "local-first")
    assert memory()["tags"] == ["work", "talks", "local-first"]
    ok("edit", target, "--untag", "work")
    assert memory()["tags"] == ["talks", "local-first"]
    ok("edit", target, "--set-tags", "a,b_2, c-3")
    assert memory()["tags"] == ["a", "b_2", "c-3"]
    ok("edit", target, "--set-tags", "", "--summary", "")
    assert (memory()["tags"], memory()["summary"]) == ([], None)
    assert "Nothing changed" in ok("edit", target, "--set-tags", "").stdout


def test_edit_exportable_visibility_and_grants(ids: dict[str, str]) -> None:
    target = ids["allergy"]

    def access() -> dict[str, object]:
        result: dict[str, object] = ok("show", target, "--json").json()["memory"]["access"]
        return result

    assert access()["exportable"] is False
    ok("edit", target, "--exportable")
    assert access()["exportable"] is True
    ok("edit", target, "--not-exportable", "--visibility", "public")
    assert (access()["exportable"], access()["visibility"]) == (False, "public")
    ok("edit", target, "--visibility", "private")
    ok("edit", target, "--grant", "agent-x:read,write", "--grant", "agent-y:read")
    assert access()["visibility"] == "shared"  # a grant on a private memory shares it
    assert access()["shared_with"] == [
        {"entity": "agent-x", "permissions": ["read", "write"]},
        {"entity": "agent-y", "permissions": ["read"]},
    ]
    assert "agent-x (read, write)" in ok("show", target).stdout
    ok("edit", target, "--revoke", "agent-x:write")
    ok("edit", target, "--revoke", "agent-y")
    assert access()["shared_with"] == [{"entity": "agent-x", "permissions": ["read"]}]
    actions = [e["action"] for e in ok("audit", "--memory", target, "--json").json()]
    assert actions == ["add", *["update"] * 3, "grant", "grant", "revoke", "revoke"]


def test_edit_is_all_or_nothing(ids: dict[str, str]) -> None:
    target = ids["debian"]
    before = snapshot()
    message = refused("edit", target, "--content", "Uses Arch", "--grant", "agent-x:fly", code=2)
    assert "'fly' must be read, write or delete" in message
    assert snapshot() == before


def test_edit_without_changes_is_a_usage_error(ids: dict[str, str]) -> None:
    assert "nothing to change" in refused("edit", ids["debian"], code=2)
    assert "ENTITY:PERMISSIONS" in refused("edit", ids["debian"], "--grant", "agent-x", code=2)


# -- lifecycle and relations --------------------------------------------------------------------


def test_supersede(ids: dict[str, str]) -> None:
    old, new = ids["lisbon"], ids["lisboa"]
    payload = ok("supersede", old[:8], new[:8], "--json").json()
    assert payload["superseded"]["id"] == old
    assert payload["superseded"]["status"] == "superseded"
    assert payload["superseded"]["temporal"]["superseded_by"] == new
    relation = payload["relation"]
    assert (relation["from"], relation["to"], relation["type"]) == (new, old, "supersedes")
    assert old not in [m["id"] for m in listed()]
    assert [m["id"] for m in listed("--status", "superseded")] == [old]
    shown = ok("show", new, "--json").json()
    assert [r["id"] for r in shown["relations"]] == [relation["id"]]
    assert "this supersedes" in ok("show", new).stdout
    assert "supersedes this" in ok("show", old).stdout
    assert ok("stats", "--json").json()["relations_by_type"] == {"supersedes": 1}


def test_retract_archive_deprecate(ids: dict[str, str]) -> None:
    run = ok("retract", ids["coffee"])
    assert run.stdout.strip() == f"✓ Memory {ids['coffee']} is now retracted."
    assert ok("archive", ids["guitar"], "--json").json()["status"] == "archived"
    assert ok("deprecate", ids["debian"], "--json").json()["status"] == "deprecated"
    assert ok("retract", ids["debian"], "--json").json()["status"] == "retracted"
    statuses = {m["id"]: m["status"] for m in listed("--status", "all")}
    assert statuses[ids["coffee"]] == statuses[ids["debian"]] == "retracted"
    assert statuses[ids["guitar"]] == "archived"
    assert {m["id"] for m in listed("-s", "retracted", "-s", "archived")} == {
        ids["coffee"],
        ids["debian"],
        ids["guitar"],
    }
    assert len(listed()) == 17
    # Retracted memories are kept (PAM §16.3), content and all.
    kept = ok("show", ids["coffee"], "--json").json()["memory"]
    assert kept["content"] == "Prefers dark roast coffee without sugar"


def test_relate(ids: dict[str, str]) -> None:
    a, b = ids["python"], ids["memvault"]
    relation = ok("relate", a, b, "--type", "supports", "--confidence", "0.8", "--json").json()
    assert (relation["from"], relation["to"], relation["type"]) == (a, b, "supports")
    assert relation["confidence"] == 0.8
    again = ok("relate", a[:8], b[:8], "-t", "supports", "--json").json()
    assert again["id"] == relation["id"]
    ok("relate", b, ids["sqlcipher"], "--type", "derived_from")
    shown = ok("show", b, "--json").json()
    assert {r["type"] for r in shown["relations"]} == {"supports", "derived_from"}
    text = ok("show", b).stdout
    assert "supports this" in text and "this derived from" in text
    assert "Decided to encrypt the vault" in text
    stats = ok("stats", "--json").json()
    assert stats["relations"] == 2


# -- decay --------------------------------------------------------------------------------------


def test_decay_reports_counts_and_spares_dna(ids: dict[str, str], home: Path) -> None:
    old_fact = pam_memory("Old fact from 2024", created_at="2024-01-01T00:00:00Z")
    old_identity = pam_memory(
        "Old identity from 2024", type="identity", created_at="2024-01-01T00:00:00Z"
    )
    with Vault.open(home, PASSPHRASE) as vault:
        vault.add_memories([old_fact, old_identity])
    entries = len(ok("audit", "--limit", "0", "--json").json())

    dry = ok("decay", "--dry-run", "--json").json()
    assert dry["dry_run"] is True and dry["updated"] >= 1 and dry["protected"] >= 1
    assert ok("show", old_fact.id, "--json").json()["memory"]["confidence"]["current"] == 0.8
    assert len(ok("audit", "--limit", "0", "--json").json()) == entries
    assert "Dry run" in ok("decay", "--dry-run").stdout

    real = ok("decay", "--json").json()
    # The real run comes a moment after the dry run: memories added seconds ago may have
    # decayed by a hair in between, so only the counts that cannot move are compared exactly.
    assert real["examined"] == dry["examined"] and real["protected"] == dry["protected"]
    assert real["updated"] >= dry["updated"]
    fact = ok("show", old_fact.id, "--json").json()["memory"]
    identity = ok("show", old_identity.id, "--json").json()["memory"]
    assert fact["confidence"]["current"] < 0.8
    assert identity["confidence"]["current"] == 0.8  # DNA class: never decayed
    assert ok("audit", "--limit", "1", "--json").json()[0]["action"] == "decay"
    # Again at once: memories added seconds ago may still move by a hair as time passes, so
    # the run is judged on what cannot move — DNA class still spared, the old identity intact.
    again = ok("decay", "--json").json()
    assert again["protected"] == real["protected"] and again["examined"] == real["examined"]
    assert ok("show", old_identity.id, "--json").json()["memory"]["confidence"]["current"] == 0.8
    assert "DNA-class left untouched" in ok("decay").stdout


# -- audit and stats ----------------------------------------------------------------------------


def test_audit_lists_entries_without_content(ids: dict[str, str]) -> None:
    entries = ok("audit", "--limit", "0", "--json").json()
    assert len(entries) == 21
    assert entries[0]["action"] == "init" and entries[0]["seq"] == 1
    assert {e["action"] for e in entries[1:]} == {"add"}
    for before, after in itertools.pairwise(entries):
        assert after["prev_hash"] == before["hash"]
    assert [e["seq"] for e in ok("audit", "-n", "3", "--json").json()] == [19, 20, 21]
    assert len(ok("audit", "--json").json()) == 20  # the default limit
    one = ok("audit", "--memory", ids["acao"][:8], "--json").json()
    assert [(e["action"], e["memory_id"]) for e in one] == [("add", ids["acao"])]
    table = ok("audit", "--limit", "0").stdout
    assert "init" in table and ids["acao"][:8] in table
    everything = ok("audit", "--limit", "0", "--json").stdout + table
    for _, content, _ in SAMPLES:
        assert content not in everything


def test_audit_verify(ids: dict[str, str], home: Path) -> None:
    report = ok("audit", "verify", "--json").json()
    assert report["ok"] is True and report["entries"] == 21 and report["problems"] == []
    assert "Audit chain intact: 21 entries" in ok("audit", "verify").stdout
    with Vault.open(home, PASSPHRASE) as vault:
        vault.store.execute_raw("UPDATE audit_log SET actor = 'mallory' WHERE seq = 3")  # type: ignore[attr-defined]
    broken = mv("audit", "verify")
    assert broken.exit_code == 1
    assert "Audit chain broken" in broken.stdout and "entry 3" in broken.stdout
    assert broken.stderr.startswith("error: the audit log does not verify: entry 3")
    as_json = mv("audit", "verify", "--json")
    assert as_json.exit_code == 1
    payload = json.loads(as_json.stdout)
    assert payload["ok"] is False and any("entry 3" in p for p in payload["problems"])


def test_stats(ids: dict[str, str]) -> None:
    ok("retract", ids["coffee"])
    ok("relate", ids["python"], ids["memvault"], "--type", "supports")
    stats = ok("stats", "--json").json()
    assert stats["memories"] == 20
    assert stats["by_status"] == {"active": 19, "retracted": 1}
    assert sum(stats["by_type"].values()) == 20
    assert stats["relations"] == 1 and stats["relations_by_type"] == {"supports": 1}
    assert stats["audit_entries"] == 23
    assert stats["schema_version"] >= 1 and stats["db_size_bytes"] > 0
    text = ok("stats").stdout
    assert "Memories: 20" in text and "encrypted" in text and "retracted" in text


# -- agents (PAM §9) ----------------------------------------------------------------------------


def test_agent_reads_only_what_it_was_granted(ids: dict[str, str]) -> None:
    private, shared = ids["allergy"], ids["saopaulo"]
    message = refused("show", private, "--as", "agent-x")
    assert "'agent-x' may not read memory" in message and "private" in message
    assert listed("--as", "agent-x") == []
    assert found("penicillin", "--as", "agent-x") == []

    ok("edit", shared, "--grant", "agent-x:read")
    assert ok("show", shared[:8], "--as", "agent-x", "--json").json()["memory"]["id"] == shared
    assert [m["id"] for m in listed("--as", "agent-x")] == [shared]
    assert found("sao paulo", "--as", "agent-x") == [shared]
    assert refused("show", shared, "--as", "agent-y")  # the grant names agent-x only
    refused("show", private, "--as", "agent-x")

    # Reading is not writing.
    assert "'write' permission" in refused("edit", shared, "--tag", "x", "--as", "agent-x")
    assert "'write' permission" in refused("retract", shared, "--as", "agent-x")
    ok("edit", shared, "--grant", "agent-x:write")
    ok("edit", shared, "--tag", "trip", "--as", "agent-x")
    assert "only the owner" in refused("edit", shared, "--visibility", "public", "--as", "agent-x")
    assert "only the owner" in refused(
        "edit", shared, "--grant", "agent-x:delete", "--as", "agent-x"
    )
    assert "trip" in ok("show", shared, "--json").json()["memory"]["tags"]

    ok("edit", private, "--visibility", "public")
    assert ok("show", private, "--as", "agent-z", "--json").json()["memory"]["id"] == private


# -- across commands ----------------------------------------------------------------------------

VAULT_COMMANDS = [
    ["init"],
    ["add"],
    ["list"],
    ["show"],
    ["edit"],
    ["search"],
    ["retract"],
    ["archive"],
    ["deprecate"],
    ["supersede"],
    ["relate"],
    ["decay"],
    ["audit"],
    ["audit", "verify"],
    ["stats"],
]


def test_every_vault_command_has_json_home_and_passphrase_options() -> None:
    for command in VAULT_COMMANDS:
        text = ok(*command, "--help").stdout
        for option in ("--json", "--home", "--passphrase-file"):
            assert option in text, (command, option)
        if command[0] not in ("init", "audit", "stats"):
            assert "--as" in text, command  # where the vault enforces access control


def test_what_the_cli_stores_is_encrypted(ids: dict[str, str], home: Path) -> None:
    raw = b"".join(p.read_bytes() for p in sorted(home.iterdir()) if p.is_file())
    for _, content, _ in SAMPLES:
        assert content.encode() not in raw
    assert b"Lisboa" not in raw and b"SQLite format 3" not in raw


def test_pam_9_agent_that_adds_a_memory_may_show_it(home: Path) -> None:
    """PAM §9: `add … --as agent-x` succeeded without any grant, then `show --as agent-x` of
    that memory was refused. An agent that creates a memory holds read and write on it: it
    shows and edits it, another agent still may not read it, and the owner sees the grant."""
    ok("init")
    memory = ok("add", "Deploys go out on Tuesdays", "-t", "fact", "--as", "agent-x", "--json")
    memory_id = memory.json()["memory"]["id"]
    assert ok("show", memory_id, "--as", "agent-x").stdout
    ok("edit", memory_id, "--summary", "Tuesday deploys", "--as", "agent-x")
    listed = ok("list", "--as", "agent-x", "--json").json()["memories"]
    assert [m["id"] for m in listed] == [memory_id]
    assert "may not read" in refused("show", memory_id, "--as", "agent-y")
    access = ok("show", memory_id, "--json").json()["memory"]["access"]
    assert access["visibility"] == "shared"
    assert access["shared_with"] == [{"entity": "agent-x", "permissions": ["read", "write"]}]


def test_stats_and_inspect_name_a_custom_type_alike_pam_6(home: Path, tmp_path: Path) -> None:
    """`stats` grouped every custom memory as "custom" while `inspect` of its export said
    "custom:decision"."""
    ok("init")
    ok("add", "Chose PostgreSQL for the ledger", "-t", "custom", "--custom-type", "decision")
    ok("add", "Lives in Lisbon", "-t", "fact")
    ok("export", "-o", tmp_path / "out.json")
    inspected = ok("inspect", tmp_path / "out.json", "--json").json()["memory_store"]["by_type"]
    assert ok("stats", "--json").json()["by_type"] == inspected == {"custom:decision": 1, "fact": 1}


def test_list_and_search_show_markdown_memories_as_one_line_of_text(home: Path) -> None:
    """Claude's project memories are Markdown sections: the list showed "**Purpose**
    Receitas…"; it shows them as the assistant exports paste them, headings as "Heading:"."""
    ok("init")
    content = (
        "**Purpose**\nReceitas sem glúten para a família.\n\n**Current state**\nTestando pães."
    )
    ok("add", content, "--type", "project")
    for args in (("list",), ("search", "receitas")):
        shown = ok(*args).stdout
        assert "**" not in shown, shown
        assert "Purpose: Receitas" in " ".join(shown.split()), shown
    # `show` gives the content as written.
    assert ok("show", ok("list", "--json").json()["memories"][0]["id"]).stdout.count("**") == 4
