"""The AIMEM HTTP profile (draft §3) through the server: every status it names, the reference
corpus posted over HTTP with each file's exact status, the stream form, the signature header
and the well-known key (§5.3), the import as one transaction, and where memvault differs from
the draft's reference server (a string `is_pinned`, a changed chunk under the same
`created_at`, small-float weights)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from aimemkit import bundle, chunk, to_ndjson
from memvault.crypto.keys import SigningKey
from memvault.formats.aimem import bundle_checksum, canonical_bundle_bytes, validate_bundle
from memvault.formats.aimem.cose import public_key_from_cose_key, verify_payload
from memvault.formats.aimem.reader import bundle_bytes_stream
from memvault.store.base import MemoryQuery
from serverkit import Home, app_for, auth, client, home_on_each_backend, running

CORPUS = Path(__file__).parent / "aimem_corpus"
MANIFEST = json.loads((CORPUS / "expected.json").read_text())
BUNDLE = "application/aimem-bundle+json"


home = home_on_each_backend()


def memory_count(home: Home, tenant: str) -> int:
    return sum(1 for _ in home.vault(tenant).iter_memories(MemoryQuery(limit=None)))


def post(home: Home, key: str, body: bytes, **headers: str) -> httpx.Response:
    with client(app_for(home), key) as http:
        return http.post(
            "/v1/brain/import", content=body, headers={"Content-Type": BUNDLE, **headers}
        )


def get(home: Home, key: str | None, url: str) -> httpx.Response:
    with client(app_for(home), key) as http:
        return http.get(url)


def corpus_body(rel: str, form: str, tmp_path: Path) -> bytes:
    path = CORPUS / rel
    if form == "ndjson" and not rel.endswith(".ndjson"):
        path = to_ndjson(path, tmp_path / (path.name + ".ndjson"))
    return path.read_bytes()


def cases(section: str) -> list[Any]:
    return [
        pytest.param(rel, form, id=f"{Path(rel).name}-{form}")
        for rel, entry in MANIFEST[section].items()
        for form in entry["forms"]
    ]


# -- the reference corpus over HTTP ------------------------------------------------------------


@pytest.mark.parametrize(("rel", "form"), cases("invalid"))
def test_aimem_3_2_invalid_corpus_file_answers_its_exact_status(
    rel: str, form: str, home: Home, tmp_path: Path
) -> None:
    """§3.2: every invalid corpus file posted answers the manifest's status (409 for a
    checksum mismatch, else 422) as a problem naming the manifest's rule, and nothing of it
    is imported."""
    expected = MANIFEST["invalid"][rel]
    key = home.key("alice")
    response = post(home, key, corpus_body(rel, form, tmp_path))
    assert response.status_code == expected["status"], response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem["status"] == expected["status"]
    assert expected["code"] in {e["rule"] for e in problem["errors"]}, problem
    assert memory_count(home, "alice") == 0


@pytest.mark.parametrize("rel", list(MANIFEST["valid"]))
def test_aimem_3_2_valid_corpus_file_imports_with_200(rel: str, home: Home, tmp_path: Path) -> None:
    """§3.2, §4 Level 2: every valid corpus file is ingested (200, every chunk inserted, none
    rejected); the NDJSON form of the same bundle is then an idempotent no-op (§2.9)."""
    _tenant, key = home.fresh()
    chunks = json.loads((CORPUS / rel).read_bytes()).get("chunks", [])
    first = post(home, key, corpus_body(rel, "json", tmp_path))
    assert first.status_code == 200, first.text
    summary = first.json()
    assert summary["rejected"] == []
    assert summary["inserted"] + summary["updated"] == len(chunks)
    again = post(home, key, corpus_body(rel, "ndjson", tmp_path))
    assert again.status_code == 200, again.text
    assert again.json()["inserted"] == 0 and again.json()["skipped"] == len(chunks)


def test_aimem_2_8_stale_checksum_answers_409_before_anything_else(
    home: Home, tmp_path: Path
) -> None:
    """§2.8: a bundle that is malformed AND whose checksum is stale answers 409, not 422 —
    the checksum is checked before anything else, and only its problem is reported."""
    doc = json.loads((CORPUS / "invalid/is-pinned-string.aimem.json").read_bytes())
    doc["chunks"][0]["content"] = doc["chunks"][0]["content"] + " (edited)"
    response = post(home, home.key("alice"), orjson.dumps(doc))
    assert response.status_code == 409, response.text
    assert [e["rule"] for e in response.json()["errors"]] == ["checksum-mismatch"]


# -- differences from the reference server ---------------------------------------------------


def test_aimem_2_2_is_pinned_string_false_is_422_not_true(home: Home) -> None:
    """§2.2: `is_pinned` MUST be a boolean: the string "false" refuses the bundle with 422
    naming the field (the reference server stores it as true), and nothing is imported."""
    tenant, key = home.fresh()
    doc = bundle([chunk("a", "fine"), chunk("b", "pinned?", is_pinned="false")])
    response = post(home, key, orjson.dumps(doc))
    assert response.status_code == 422
    [error] = response.json()["errors"]
    assert error["rule"] == "is-pinned-invalid" and error["field"] == "/chunks/1/is_pinned"
    assert error["chunk_id"] == "urn:aimem:memoryai-prod:b" and error["section"] == "§2.2"
    assert memory_count(home, tenant) == 0


def test_aimem_2_9_changed_chunk_same_created_at_is_rejected_not_skipped(home: Home) -> None:
    """§2.9 rule 2 / §5.4: a chunk whose content changed under the same `created_at` is
    rejected with a structured error (chunk id, field, rule, section) — not silently
    skipped as the reference server does — while the bundle's other chunks are imported."""
    tenant, key = home.fresh()
    assert post(home, key, orjson.dumps(bundle([chunk("a", "the original")]))).status_code == 200
    changed = bundle([chunk("a", "the original, changed"), chunk("b", "a new one")])
    response = post(home, key, orjson.dumps(changed))
    assert response.status_code == 200, response.text
    summary = response.json()
    assert summary["inserted"] == 1 and summary["skipped"] == 0
    [rejected] = summary["rejected"]
    assert rejected["chunk_id"] == "urn:aimem:memoryai-prod:a"
    assert rejected["field"] == "/chunks/0" and rejected["rule"] == "chunk-conflict"
    assert rejected["section"] == "§2.9" and "content" in rejected["detail"]
    contents = {m.content for m in home.vault(tenant).iter_memories(MemoryQuery(limit=None))}
    assert contents == {"the original", "a new one"}


def test_aimem_2_9_newer_created_at_is_updated(home: Home) -> None:
    """§2.9 rule 3 (memvault updates, docs/aimem-mapping.md): the same chunk with a newer
    `created_at` and changed content counts as updated, and the vault holds the new text."""
    tenant, key = home.fresh()
    post(home, key, orjson.dumps(bundle([chunk("a", "old text")])))
    newer = chunk("a", "new text", created_at="2026-05-01T00:00:00Z")
    response = post(home, key, orjson.dumps(bundle([newer])))
    assert response.status_code == 200
    assert (response.json()["inserted"], response.json()["updated"]) == (0, 1)
    [memory] = list(home.vault(tenant).iter_memories(MemoryQuery(limit=None)))
    assert memory.content == "new text"


def test_aimem_2_4_small_float_weight_5e_05_is_accepted(home: Home) -> None:
    """§2.4: 5e-05 is a number in [0, 1]: the bundle imports (the reference server answers
    409 because it hashes the number differently)."""
    _tenant, key = home.fresh()
    body = (CORPUS / "valid/weight-5e-05.aimem.json").read_bytes()
    assert b"5e-05" in body
    response = post(home, key, body)
    assert response.status_code == 200, response.text
    assert response.json()["rejected"] == []


# -- one transaction -------------------------------------------------------------------------


def test_aimem_3_2_import_is_one_transaction_a_late_fault_applies_nothing(home: Home) -> None:
    """An import is one transaction: 2,500 valid chunks followed by an edge naming an unknown
    chunk (§2.4) answer 422 and leave the vault exactly as it was — not the first batches."""
    tenant, key = home.fresh()
    post(home, key, orjson.dumps(bundle([chunk("kept", "already here")])))
    before = memory_count(home, tenant)
    doc = bundle([chunk(f"c{i}", f"memory {i}") for i in range(2500)])
    doc["edges"] = [
        {
            "source_id": "urn:aimem:memoryai-prod:c1",
            "target_id": "urn:aimem:memoryai-prod:nowhere",
            "edge_type": "semantic",
            "weight": 0.5,
            "created_at": "2026-04-01T09:30:00Z",
        }
    ]
    doc["checksum"] = bundle_checksum(doc)
    response = post(home, key, orjson.dumps(doc))
    assert response.status_code == 422
    assert response.json()["errors"][0]["rule"] == "edge-unknown-chunk"
    assert memory_count(home, tenant) == before == 1


def test_aimem_3_2_accepted_chunks_commit_together_beside_rejections(home: Home) -> None:
    """§2.9 rejects single chunks: with one conflicting chunk among 3,000, the 2,999 others
    are all committed (more than one store batch), and re-posting rejects the same chunk."""
    tenant, key = home.fresh()
    post(home, key, orjson.dumps(bundle([chunk("c7", "first version")])))
    doc = bundle([chunk(f"c{i}", f"memory {i}") for i in range(3000)])
    response = post(home, key, orjson.dumps(doc))
    summary = response.json()
    assert response.status_code == 200
    assert summary["inserted"] == 2999
    assert [r["chunk_id"] for r in summary["rejected"]] == ["urn:aimem:memoryai-prod:c7"]
    assert memory_count(home, tenant) == 3000


# -- export -----------------------------------------------------------------------------------


def _seed(home: Home, key: str) -> None:
    chunks = [
        chunk("fact", "The sky is blue."),
        chunk("pref", "Prefers tea to coffee.", "preference"),
        chunk("later", "Moved to Lisbon.", created_at="2026-05-02T08:00:00Z"),
    ]
    assert post(home, key, orjson.dumps(bundle(chunks))).status_code == 200


def test_aimem_3_1_export_is_a_valid_bundle_with_its_media_type(home: Home) -> None:
    """§3.1: 200 with `application/aimem-bundle+json`; the body is a bundle that validates
    (checksum included) and holds every memory; re-importing it is a no-op (§4 Level 3)."""
    _tenant, key = home.fresh()
    _seed(home, key)
    response = get(home, key, "/v1/brain/export")
    assert response.status_code == 200
    assert response.headers["content-type"] == BUNDLE
    report = validate_bundle(bundle_bytes_stream(response.content))
    assert report.valid, [str(p) for p in report.problems]
    doc = response.json()
    assert len(doc["chunks"]) == 3 and doc["scope"] == "FULL"
    assert response.headers["AIMEM-Checksum"] == doc["checksum"]
    again = post(home, key, response.content).json()
    assert again["inserted"] == 0 and again["rejected"] == [] and again["skipped"] == 3


def test_aimem_3_1_stream_first_line_is_the_envelope_with_the_whole_checksum(home: Home) -> None:
    """§3.1: NDJSON; the first line is the envelope without the arrays, carrying the
    checksum of the whole bundle; then one `_kind`-tagged record a line. The stream
    validates (its checksum verifies) and imports into another tenant."""
    _tenant, key = home.fresh()
    _seed(home, key)
    response = get(home, key, "/v1/brain/export/stream")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/x-ndjson"
    lines = response.content.splitlines()
    envelope = json.loads(lines[0])
    assert not {"chunks", "edges", "entities", "chunk_entities"} & set(envelope)
    assert envelope["checksum"].startswith("sha256:")
    assert [json.loads(line)["_kind"] for line in lines[1:]] == ["chunk"] * 3
    report = validate_bundle(bundle_bytes_stream(response.content))
    assert report.valid and report.form == "ndjson"
    assert report.facts["checksum"] == envelope["checksum"]
    _other, other_key = home.fresh()
    assert post(home, other_key, response.content).json()["inserted"] == 3


def test_aimem_3_1_export_scopes_dna_only_and_since(home: Home) -> None:
    """§3.1 `scope=`/`since=`: DNA_ONLY holds the DNA-class memories only; SINCE those
    created or changed at or after `since` (declared in the envelope)."""
    _tenant, key = home.fresh()
    _seed(home, key)
    dna = get(home, key, "/v1/brain/export?scope=DNA_ONLY").json()
    assert [c["content"] for c in dna["chunks"]] == ["Prefers tea to coffee."]
    assert dna["scope"] == "DNA_ONLY"
    full = get(home, key, "/v1/brain/export?scope=FULL").json()
    assert len(full["chunks"]) == 3
    since = get(home, key, "/v1/brain/export?scope=SINCE&since=2099-01-01T00:00:00Z").json()
    assert since["scope"] == "SINCE" and since["since"] == "2099-01-01T00:00:00Z"
    assert since["chunks"] == []
    stream = get(home, key, "/v1/brain/export/stream?scope=DNA_ONLY")
    assert len(stream.content.splitlines()) == 2


@pytest.mark.parametrize(
    "query",
    [
        "scope=EVERYTHING",
        "scope=SINCE",
        "scope=FULL&since=2026-01-01T00:00:00Z",
        "scope=SINCE&since=yesterday",
    ],
)
def test_aimem_3_1_export_bad_scope_or_since_is_422(home: Home, query: str) -> None:
    """§2.1: an unknown scope, SINCE without `since`, `since` without SINCE, or a `since`
    that is no time: 422 problems, for both export forms."""
    for url in ("/v1/brain/export", "/v1/brain/export/stream"):
        response = get(home, home.key("bob"), f"{url}?{query}")
        assert response.status_code == 422, (url, query, response.text)
        assert response.headers["content-type"] == "application/problem+json"


# -- credentials and scopes -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "url"),
    [
        ("GET", "/v1/brain/export"),
        ("GET", "/v1/brain/export/stream"),
        ("POST", "/v1/brain/import"),
        ("GET", "/.well-known/aimem-pubkey"),
    ],
)
def test_aimem_3_401_without_credentials_403_without_the_scope(
    home: Home, method: str, url: str
) -> None:
    """§3.1/§3.2: 401 without credentials (or with a key nobody issued); 403 for a token
    without the route's scope (`bundle:export` / `bundle:import`)."""
    body = orjson.dumps(bundle([chunk("a", "x")]))
    with client(app_for(home)) as http:
        assert http.request(method, url, content=body).status_code == 401
        wrong = http.request(method, url, content=body, headers=auth("mv_not-a-key"))
        assert wrong.status_code == 401
        other_scope = "bundle:import" if method == "GET" else "bundle:export"
        scoped = home.scoped("bob", other_scope, "memories:read")
        response = http.request(method, url, content=body, headers=auth(scoped))
    assert response.status_code == 403, response.text
    assert response.headers["content-type"] == "application/problem+json"


def test_aimem_3_2_body_past_the_limit_is_413(home: Home) -> None:
    """Bodies are read streamed and size-limited: past the server's limit, 413."""
    body = orjson.dumps(bundle([chunk(f"c{i}", "x" * 200) for i in range(100)]))
    with client(app_for(home, max_body=4096), home.key("bob")) as http:
        response = http.post("/v1/brain/import", content=body)
    assert response.status_code == 413


def test_aimem_3_agent_token_exports_only_what_it_may_read(home: Home) -> None:
    """An agent's token exports through the agent's session: the memories granted to it
    (PAM §9), never the owner's private ones."""
    tenant, key = home.fresh()
    _seed(home, key)
    vault = home.vault(tenant)
    [shared] = [m for m in vault.iter_memories(MemoryQuery(limit=None)) if "tea" in m.content]
    vault.grant(shared.id, "agent-x", ["read"])
    agent_key = home.agent(tenant, "agent-x", "bundle:export")
    doc = get(home, agent_key, "/v1/brain/export").json()
    assert [c["content"] for c in doc["chunks"]] == ["Prefers tea to coffee."]


# -- §5.3 signatures --------------------------------------------------------------------------


def test_aimem_5_3_signature_header_round_trip_and_well_known_key(home: Home) -> None:
    """§5.3: with a signing key, the export carries `AIMEM-Signature` (a detached COSE_Sign1
    over the canonical bundle) that verifies against `/.well-known/aimem-pubkey` (a
    COSE_Key); posted with the bundle to another tenant it verifies; a signature of other
    bytes is refused (422) unless allowed, and then audited."""
    tenant, key = home.fresh()
    _seed(home, key)
    home.vault(tenant).add_key(SigningKey.new("Ed25519").to_record())
    for url in ("/v1/brain/export", "/v1/brain/export/stream"):
        response = get(home, key, url)
        signature = base64.b64decode(response.headers["AIMEM-Signature"])
        published = get(home, key, "/.well-known/aimem-pubkey")
        assert published.status_code == 200
        assert published.headers["content-type"] == "application/cose-key"
        public = public_key_from_cose_key(published.content)
        if url.endswith("stream"):
            lines = response.content.splitlines()
            doc = json.loads(lines[0])
            kinds = {"chunk": "chunks", "edge": "edges", "entity": "entities"}
            doc.update({a: [] for a in ("chunks", "edges", "entities", "chunk_entities")})
            for line in lines[1:]:
                record = json.loads(line)
                doc[kinds.get(record.pop("_kind"), "chunk_entities")].append(record)
        else:
            doc = response.json()
        assert verify_payload(signature, canonical_bundle_bytes(doc), public).ok
    full = get(home, key, "/v1/brain/export")
    header = full.headers["AIMEM-Signature"]
    other, other_key = home.fresh()
    verified = post(home, other_key, full.content, **{"AIMEM-Signature": header})
    assert verified.status_code == 200 and verified.json()["signature"] == "verified"
    tampered = orjson.loads(full.content)
    tampered["chunks"] = tampered["chunks"][:1]
    tampered["checksum"] = bundle_checksum(tampered)
    refused = post(home, other_key, orjson.dumps(tampered), **{"AIMEM-Signature": header})
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["rule"] == "signature-invalid"
    position = home.vault(other).audit_position()
    with client(app_for(home), other_key) as http:
        allowed = http.post(
            "/v1/brain/import?allow_unverified=true",
            content=orjson.dumps(tampered),
            headers={"AIMEM-Signature": header},
        )
    assert allowed.status_code == 200 and allowed.json()["signature"] == "invalid"
    entries = home.vault(other).audit_entries(after_seq=position, actions=["signature"])
    assert [e.details["status"] for e in entries] == ["invalid"]


def test_aimem_5_3_unsigned_import_skips_verification_and_audits_it(home: Home) -> None:
    """§5.3: a bundle posted without `AIMEM-Signature` is imported with the verification
    skipped, and that decision is an entry of the tenant's audit log."""
    tenant, key = home.fresh()
    position = home.vault(tenant).audit_position()
    response = post(home, key, orjson.dumps(bundle([chunk("a", "unsigned")])))
    assert response.json()["signature"] == "skipped"
    entries = home.vault(tenant).audit_entries(after_seq=position, actions=["signature"])
    assert [e.details["status"] for e in entries] == ["skipped"]
    assert "unsigned" in entries[0].details["reason"]


def test_aimem_5_3_garbled_signature_header_is_422(home: Home) -> None:
    """A header that is not base64 is a 422 naming the header; one that is not a COSE_Sign1
    refuses the bundle (422, signature-invalid); nothing is imported."""
    tenant, key = home.fresh()
    body = orjson.dumps(bundle([chunk("a", "x")]))
    assert post(home, key, body, **{"AIMEM-Signature": "***"}).status_code == 422
    response = post(home, key, body, **{"AIMEM-Signature": "AAAA"})
    assert response.status_code == 422
    assert response.json()["errors"][0]["rule"] == "signature-invalid"
    assert memory_count(home, tenant) == 0


def test_aimem_5_3_well_known_pubkey_404_without_a_key(home: Home) -> None:
    _tenant, key = home.fresh()
    response = get(home, key, "/.well-known/aimem-pubkey")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"


# -- through a real server --------------------------------------------------------------------


def test_aimem_3_through_uvicorn_corpus_statuses_and_stream(home: Home, tmp_path: Path) -> None:
    """A real uvicorn server on 127.0.0.1: a few corpus files get their statuses, and the
    NDJSON export streams back what was imported."""
    _tenant, key = home.fresh()
    picks = {
        "valid/full.aimem.json": 200,
        "invalid/checksum-mismatch.aimem.json": 409,
        "invalid/is-pinned-string.aimem.json": 422,
        "invalid/ndjson-truncated-line.ndjson": 422,
    }
    with running(app_for(home)) as url, httpx.Client(base_url=url, headers=auth(key)) as http:
        for rel, status in picks.items():
            response = http.post("/v1/brain/import", content=(CORPUS / rel).read_bytes())
            assert response.status_code == status, (rel, response.text)
        assert http.post("/v1/brain/import", content=b"").status_code == 422
        with http.stream("GET", "/v1/brain/export/stream") as response:
            assert response.status_code == 200
            lines = list(response.iter_lines())
        assert http.get("/v1/brain/export", headers={"Authorization": ""}).status_code == 401
    chunks = json.loads((CORPUS / "valid/full.aimem.json").read_bytes())["chunks"]
    assert sum(json.loads(line).get("_kind") == "chunk" for line in lines) == len(chunks)
