"""Exchanged embeddings are the recall index's vectors (PAM §12, AIMEM "Embedding encoding"
and §2.7; docs/decisions.md, "Exchanged embeddings are recall vectors")."""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest

from embedserver import DIMENSION, MODEL, EmbedServer, serve
from memvault.exchange import export_vault
from memvault.exchange.aimem import export_bundle, import_bundle
from memvault.exchange.pam import import_into_vault
from memvault.recall.embedders import EmbedderSpec
from memvault.vault import Vault
from vaultkit import make_vault

FACTS = {
    "ferry": "Takes the ferry to Madeira every summer",
    "violin": "Plays the violin in a community orchestra",
    "garden": "Grows tomatoes and basil on the balcony garden",
}


@pytest.fixture
def embed_server() -> Iterator[EmbedServer]:
    with serve() as running:
        yield running


def _embedded(home: Path, server: EmbedServer) -> tuple[Vault, dict[str, str]]:
    """A vault holding FACTS, embedded with the test embedder: (vault, key -> memory id)."""
    vault = make_vault(home)
    ids = {key: vault.add(text, "fact").memory.id for key, text in FACTS.items()}
    vault.embed(EmbedderSpec("openai", MODEL, server.url))
    return vault, ids


def _recall_vectors(vault: Vault, memory_ids: list[str]) -> dict[str, list[float]]:
    """The recall index's vectors of these memories, of the test model."""
    with vault._store.recall_index() as index:
        model = index.model(MODEL, DIMENSION)
        assert model is not None
        passages = index.memory_passages(memory_ids)
        vectors = index.vectors(model, passages.values())
    return {memory_id: vectors[pid] for memory_id, pid in passages.items()}


def _fresh(home: Path, server: EmbedServer, model: str = MODEL) -> Vault:
    """An empty vault whose embedder is `model` (nothing to embed yet)."""
    vault = make_vault(home)
    vault.embed(EmbedderSpec("openai", model, server.url))
    return vault


def _vector_recall_finds_ferry(vault: Vault, ferry: str) -> None:
    result = vault.recall("ferry Madeira summer", k=3, mode="vector")
    assert result.mode == "vector" and result.vectors_complete
    assert result.hits and result.hits[0].id == ferry


def test_pam_12_embeddings_json_holds_the_recall_vectors(
    tmp_path: Path, embed_server: EmbedServer
) -> None:
    vault, ids = _embedded(tmp_path / "a", embed_server)
    try:
        export_vault(vault, tmp_path / "out")
        recall = _recall_vectors(vault, list(ids.values()))
    finally:
        vault.close()
    doc = json.loads((tmp_path / "out" / "embeddings.json").read_text())
    store = json.loads((tmp_path / "out" / "memory-store.json").read_text())
    by_memory = {e["memory_id"]: e for e in doc["embeddings"]}
    assert set(by_memory) == set(ids.values())  # §12.1 rule 6: one per memory
    refs = {m["id"]: m["embedding_ref"] for m in store["memories"]}
    for memory_id, emb in by_memory.items():
        assert emb["model"] == MODEL and emb["dimensions"] == DIMENSION
        assert emb["vector"] == pytest.approx(recall[memory_id], abs=1e-6)
        assert refs[memory_id] == emb["id"]  # §12.1: embedding_ref names it


def test_pam_12_import_of_the_same_model_makes_vector_recall_work_without_embed(
    tmp_path: Path, embed_server: EmbedServer
) -> None:
    vault, ids = _embedded(tmp_path / "a", embed_server)
    try:
        export_vault(vault, tmp_path / "out")
    finally:
        vault.close()
    fresh = _fresh(tmp_path / "b", embed_server)
    try:
        before = len(embed_server.requests)
        result = import_into_vault(fresh, tmp_path / "out")
        assert result.embeddings == len(FACTS)
        assert not any("kept as received" in w for w in result.warnings)
        assert len(embed_server.requests) == before  # the import embedded nothing
        with fresh._store.recall_index() as index:
            model = index.model(MODEL, DIMENSION)
            assert model is not None and index.complete(model)
        _vector_recall_finds_ferry(fresh, ids["ferry"])
        # Only the query was embedded: the passages' vectors came with the import.
        assert embed_server.inputs[before:] == [["ferry Madeira summer"]]
    finally:
        fresh.close()


def test_pam_12_import_of_another_model_keeps_the_vectors_and_says_so(
    tmp_path: Path, embed_server: EmbedServer
) -> None:
    vault, _ = _embedded(tmp_path / "a", embed_server)
    try:
        export_vault(vault, tmp_path / "out")
    finally:
        vault.close()
    sent = json.loads((tmp_path / "out" / "embeddings.json").read_text())["embeddings"]
    other = _fresh(tmp_path / "b", embed_server, model="other-model")
    try:
        result = import_into_vault(other, tmp_path / "out")
        assert result.embeddings == len(FACTS)
        notes = [w for w in result.warnings if "kept as received" in w]
        assert notes and f"{len(FACTS)} of {MODEL} ({DIMENSION})" in notes[0]
        with other._store.recall_index() as index:
            assert index.model(MODEL) is None  # recall took none of them
        # Lossless: exported again, the vectors are the ones that came in.
        export_vault(other, tmp_path / "again")
    finally:
        other.close()
    again = json.loads((tmp_path / "again" / "embeddings.json").read_text())["embeddings"]
    assert {e["id"]: e for e in again} == {e["id"]: e for e in sent}


def _chunk_vectors(path: Path) -> tuple[dict[str, object], dict[str, list[float]]]:
    """An AIMEM JSON bundle's envelope and its chunks' decoded embeddings by memory id."""
    doc = json.loads(path.read_text())
    envelope = {k: v for k, v in doc.items() if k != "chunks"}
    dim = int(envelope["embedding_dim"])
    out: dict[str, list[float]] = {}
    for chunk in doc["chunks"]:
        if chunk.get("embedding"):
            raw = base64.b64decode(chunk["embedding"])
            out[chunk["x-pam"]["embedding"]["memory_id"]] = list(struct.unpack(f"<{dim}f", raw))
    return envelope, out


def test_aimem_embedding_encoding_carries_the_recall_vectors_and_imports_into_recall(
    tmp_path: Path, embed_server: EmbedServer
) -> None:
    vault, ids = _embedded(tmp_path / "a", embed_server)
    bundle = tmp_path / "b.aimem.json"
    try:
        export_bundle(vault, bundle, embeddings=True)
        recall = _recall_vectors(vault, list(ids.values()))
    finally:
        vault.close()
    envelope, vectors = _chunk_vectors(bundle)
    assert envelope["embedding_model"] == MODEL and envelope["embedding_dim"] == DIMENSION
    assert set(vectors) == set(ids.values())
    for memory_id, vector in vectors.items():
        assert vector == pytest.approx(recall[memory_id], abs=1e-6)
    fresh = _fresh(tmp_path / "b", embed_server)
    try:
        before = len(embed_server.requests)
        result = import_bundle(fresh, bundle)
        assert result.embeddings == len(FACTS)
        assert len(embed_server.requests) == before
        _vector_recall_finds_ferry(fresh, ids["ferry"])
    finally:
        fresh.close()
