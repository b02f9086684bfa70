"""`memvault mcp` driven by the official `mcp` client over stdio, as Claude Desktop or Cursor
would start it: remember, recall, update, supersede, forget and export_memory with their
results checked; an agent without a grant sees nothing private (PAM §9); files only inside the
allowed folders."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from mcpkit import call as _call
from mcpkit import drive
from mcpkit import refused as _refused
from vaultkit import FAST_KDF, PASSPHRASE, make_vault

MEMVAULT = str(Path(sys.executable).with_name("memvault"))


def _params(home: Path, *args: str) -> StdioServerParameters:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "MEMVAULT_HOME": str(home),
        "MEMVAULT_PASSPHRASE": PASSPHRASE,
        "MEMVAULT_KDF_ITER": FAST_KDF,
    }
    return StdioServerParameters(command=MEMVAULT, args=["mcp", *args], env=env)


def _drive(params: StdioServerParameters, body: Callable[[Client], Awaitable[None]]) -> None:
    drive(lambda: Client(params, cache=None, read_timeout_seconds=60), body)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "vault"
    make_vault(path).close()
    return path


def test_tools_over_stdio_remember_recall_update_supersede_forget_export(
    home: Path, tmp_path: Path
) -> None:
    allowed = tmp_path / "shared"
    allowed.mkdir()

    async def body(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == {
            "remember", "recall", "forget", "list_memories", "update_memory", "supersede",
            "export_memory", "import_memory",
        }  # fmt: skip
        assert tools["recall"].annotations.read_only_hint is True  # type: ignore[union-attr]
        assert tools["forget"].annotations.destructive_hint is True  # type: ignore[union-attr]
        assert tools["remember"].input_schema["required"] == ["content"]

        added = await _call(client, "remember", content="Lives in Porto", tags=["home"])
        assert added["created"] is True
        memory_id = added["memory"]["id"]
        again = await _call(client, "remember", content="Lives in Porto")
        assert again["reinforced"] is True and again["memory"]["id"] == memory_id

        found = await _call(client, "recall", query="where does the user live Porto")
        assert found["results"][0]["id"] == memory_id
        assert found["results"][0]["memory"]["provenance"]["platform"] == "mcp"

        updated = await _call(client, "update_memory", id=memory_id[:8], add_tags=["city"])
        assert updated["tags"] == ["home", "city"]

        moved = await _call(client, "supersede", old_id=memory_id, content="Lives in Lisbon")
        assert moved["superseded"]["status"] == "superseded"
        new_id = moved["new_id"]
        assert moved["superseded"]["temporal"]["superseded_by"] == new_id
        found = await _call(client, "recall", query="Lisbon")
        assert [r["id"] for r in found["results"]] == [new_id]

        refusal = await _refused(client, "forget", id=new_id, erase=True)
        assert "confirm" in refusal
        retracted = await _call(client, "forget", id=new_id)
        assert retracted["retracted"]["status"] == "retracted"
        listed = await _call(client, "list_memories")
        assert listed["total"] == 0
        gone = await _call(client, "remember", content="Temporary note")
        erased = await _call(client, "forget", id=gone["memory"]["id"], erase=True, confirm=True)
        assert erased["erased"] == [gone["memory"]["id"]]

        inline = await _call(client, "export_memory", format="pam")
        store = json.loads(inline["document"])
        assert store["schema"] == "portable-ai-memory"
        assert {m["id"] for m in store["memories"]} == {memory_id, new_id}
        written = await _call(client, "export_memory", format="aimem", path="out.aimem.json")
        assert (allowed / "out.aimem.json").is_file()
        assert written["result"]["chunks"] == 2

        resource = await client.read_resource("memvault://memory-store")
        assert json.loads(resource.contents[0].text)["owner"]  # type: ignore[union-attr]

    _drive(_params(home, "--allow-dir", str(allowed)), body)


def test_import_memory_by_path_and_inline(home: Path, tmp_path: Path) -> None:
    allowed = tmp_path / "shared"
    allowed.mkdir()
    source = tmp_path / "other"
    make_vault(source).close()
    from memvault.vault import Vault

    with Vault.open(source, PASSPHRASE) as other:
        other.add("Speaks Portuguese and English", "skill")
        from memvault.exchange import export_vault

        export_vault(other, allowed / "store.json")

    async def body(client: Client) -> None:
        result = await _call(client, "import_memory", path=str(allowed / "store.json"))
        assert result["kind"] == "pam"
        found = await _call(client, "recall", query="Portuguese")
        assert found["results"][0]["text"] == "Speaks Portuguese and English"
        document = (allowed / "store.json").read_text()
        again = await _call(client, "import_memory", content=document)
        assert again["kind"] == "pam"
        listed = await _call(client, "list_memories")
        assert listed["total"] == 1

    _drive(_params(home, "--allow-dir", str(allowed)), body)


def test_paths_outside_the_allowed_folders_are_refused(home: Path, tmp_path: Path) -> None:
    allowed = tmp_path / "shared"
    allowed.mkdir()
    outside = tmp_path / "secret.json"
    outside.write_text("{}")
    (allowed / "link").symlink_to(tmp_path)

    async def body(client: Client) -> None:
        for path in (str(outside), "../secret.json", "link/secret.json", "/etc/passwd"):
            text = await _refused(client, "import_memory", path=path)
            assert "outside the allowed folders" in text
            text = await _refused(client, "export_memory", path=path)
            assert "outside the allowed folders" in text
        assert not (tmp_path / "secret.json").read_text().strip("{}")

    _drive(_params(home, "--allow-dir", str(allowed)), body)


def test_importing_a_missing_file_says_it_does_not_exist(home: Path, tmp_path: Path) -> None:
    """A path inside an allowed folder that names no file is refused as such ("no such file"),
    not as "not valid PAM"; an empty file is refused naming what it lacks."""
    allowed = tmp_path / "shared"
    allowed.mkdir()
    (allowed / "empty.json").write_bytes(b"")

    async def body(client: Client) -> None:
        text = await _refused(client, "import_memory", path=str(allowed / "nope.json"))
        assert "no such file" in text and "not valid PAM" not in text, text
        assert "nope.json" in text
        text = await _refused(client, "import_memory", path="empty.json")
        assert "empty" in text, text
        listed = await _call(client, "list_memories")
        assert listed["total"] == 0

    _drive(_params(home, "--allow-dir", str(allowed)), body)


def test_without_allow_dir_no_path_is_read_or_written(home: Path, tmp_path: Path) -> None:
    async def body(client: Client) -> None:
        text = await _refused(client, "export_memory", path=str(tmp_path / "x.json"))
        assert "reads and writes no files" in text
        assert not (tmp_path / "x.json").exists()

    _drive(_params(home), body)


def test_an_agent_without_a_grant_sees_nothing_private(home: Path) -> None:
    """PAM §9: `memvault mcp --as AGENT` runs every tool in the agent's session."""
    from memvault.vault import Vault

    with Vault.open(home, PASSPHRASE) as vault:
        private = vault.add("Private: salary is 5000", "fact").memory.id
        shared = vault.add(
            "Shared: prefers tea", "preference", visibility="shared",
            shared_with=[("agent-x", ["read"])],
        ).memory.id  # fmt: skip

    async def stranger(client: Client) -> None:
        assert (await _call(client, "recall", query="salary"))["results"] == []
        assert (await _call(client, "list_memories"))["total"] == 0
        store = json.loads((await _call(client, "export_memory"))["document"])
        assert store["memories"] == []
        text = await _refused(client, "forget", id=private)
        assert "agent-y" in text
        context = await client.get_prompt("memory_context", {"query": "salary"})
        assert "salary" not in context.messages[0].content.text  # type: ignore[union-attr]

    async def granted(client: Client) -> None:
        found = await _call(client, "recall", query="tea salary")
        assert [r["id"] for r in found["results"]] == [shared]
        listed = await _call(client, "list_memories")
        assert [m["id"] for m in listed["memories"]] == [shared]
        resource = await client.read_resource("memvault://context/tea")
        assert "prefers tea" in resource.contents[0].text  # type: ignore[union-attr]

    _drive(_params(home, "--as", "agent-y"), stranger)
    _drive(_params(home, "--as", "agent-x"), granted)
    with Vault.open(home, PASSPHRASE) as vault:
        assert vault.get(private).effective_status == "active"


def test_bad_arguments_are_the_tools_errors_in_the_vaults_words(home: Path) -> None:
    async def body(client: Client) -> None:
        text = await _refused(client, "remember", content="x", type="feeling")
        assert "feeling" in text and "type" in text
        text = await _refused(client, "forget", id="no-such-id")
        assert "no memory with id or id prefix 'no-such-id'" in text
        text = await _refused(client, "supersede", old_id="abc")
        assert "give content (a new memory) or new_id" in text, text
        decided = await _call(
            client, "remember", content="Use PostgreSQL", type="custom", custom_type="decision"
        )
        moved = await _call(
            client, "supersede", old_id=decided["memory"]["id"], content="Use SQLite"
        )
        new = await _call(client, "list_memories", types=["custom"])
        assert [m["custom_type"] for m in new["memories"]] == ["decision"]
        assert new["memories"][0]["id"] == moved["new_id"]
        text = await _refused(client, "import_memory", content="[1, 2]")
        assert "content" in text
        assert (await _call(client, "list_memories", status="any"))["total"] == 2

    _drive(_params(home), body)


def test_mcp_command_without_a_passphrase_or_with_a_bad_folder_exits_2(
    home: Path, tmp_path: Path
) -> None:
    import subprocess

    env = {"PATH": os.environ.get("PATH", ""), "MEMVAULT_HOME": str(home)}
    run = subprocess.run(
        [MEMVAULT, "mcp"], env=env, input="", capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2 and "passphrase" in run.stderr and run.stdout == ""
    env["MEMVAULT_PASSPHRASE"] = PASSPHRASE
    missing = tmp_path / "missing"
    run = subprocess.run(
        [MEMVAULT, "mcp", "--allow-dir", str(missing)],
        env=env, input="", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    said = " ".join(run.stderr.replace("│", " ").split())  # the usage box wraps lines
    assert run.returncode == 2 and "is not a folder" in said and "--allow-dir" in said
    assert "Traceback" not in run.stderr


def test_reading_the_memory_store_resource_records_no_export(home: Path) -> None:
    """The resource is a read: the export registry (the base of the next incremental export,
    PAM §16) is left as it was; the export_memory tool is an export and is recorded."""
    from memvault.vault import Vault

    with Vault.open(home, PASSPHRASE) as vault:
        vault.add("Likes jazz", "preference")

    async def body(client: Client) -> None:
        resource = await client.read_resource("memvault://memory-store")
        store = json.loads(resource.contents[0].text)  # type: ignore[union-attr]
        assert [m["content"] for m in store["memories"]] == ["Likes jazz"]

    _drive(_params(home), body)
    with Vault.open(home, PASSPHRASE) as vault:
        assert vault.exports() == []

    async def tool(client: Client) -> None:
        await _call(client, "export_memory")

    _drive(_params(home), tool)
    with Vault.open(home, PASSPHRASE) as vault:
        assert [r.direction for r in vault.exports()] == ["exported"]


def test_remember_over_stdio_reconciles_supersede_reinforce_and_plain_add(home: Path) -> None:
    """The `remember` tool applies the vault's reconciliation: a new residence supersedes the
    old one (PAM §6 supersession, never a deletion), a rewording reinforces, and a statement the
    rules do not read is added as given."""

    async def body(client: Client) -> None:
        old = await _call(client, "remember", content="User lives in São Paulo")
        assert (old["outcome"], old["created"]) == ("added", True)
        old_id = old["memory"]["id"]
        new = await _call(client, "remember", content="I live in Lisbon", tags=["home"])
        assert new["outcome"] == "superseded" and new["superseded"] == [old_id]
        assert new["memory"]["content"] == "User lives in Lisbon"
        assert "home" in new["memory"]["tags"]
        again = await _call(client, "remember", content="User lives in Lisbon.")
        assert again["outcome"] == "reinforced" and again["reinforced"] is True
        assert again["memory"]["id"] == new["memory"]["id"]
        plain = await _call(client, "remember", content="Keeps a sourdough starter")
        assert plain["outcome"] == "added" and plain["superseded"] == []
        assert plain["memory"]["content"] == "Keeps a sourdough starter"
        listed = await _call(client, "list_memories")
        contents = sorted(m["content"] for m in listed["memories"])
        assert contents == ["Keeps a sourdough starter", "User lives in Lisbon"]
        everything = await _call(client, "list_memories", status="any")
        statuses = {m["id"]: m["status"] for m in everything["memories"]}
        assert statuses[old_id] == "superseded"

    _drive(_params(home), body)


def test_remember_with_a_missing_argument_is_a_clear_tool_error(home: Path) -> None:
    """`remember {}` answered pydantic's text with a link to errors.pydantic.dev: the tool
    error names the missing argument, in the vault's words."""

    async def body(client: Client) -> None:
        missing = await _refused(client, "remember")
        assert "'content' is required" in missing, missing
        assert "pydantic" not in missing, missing
        wrong = await _refused(client, "remember", content="Lives in Porto", tags="home")
        assert "'tags'" in wrong and "pydantic" not in wrong, wrong

    _drive(_params(home), body)


def test_remember_names_no_conversation_pam_11(home: Path) -> None:
    """A statement remembered through MCP came from no conversation: it stored
    conversation_ref "mcp", and every later export warned that the conversations_index
    lacks it (PAM §14.1)."""

    async def body(client: Client) -> None:
        for content in ("I live in Lisbon", "Prefers green tea"):
            added = await _call(client, "remember", content=content)
            provenance = added["memory"]["provenance"]
            assert provenance["platform"] == "mcp"
            assert provenance["extraction_method"] == "explicit_user_input"
            assert provenance.get("conversation_ref") is None, provenance
            assert provenance.get("message_ref") is None, provenance
        store = json.loads((await _call(client, "export_memory", format="pam"))["document"])
        assert store["conversations_index"] == []
        assert all(m["provenance"]["conversation_ref"] is None for m in store["memories"])

    _drive(_params(home), body)


def test_list_memories_with_a_status_or_type_pam_lacks_is_refused_not_empty(home: Path) -> None:
    """`list_memories status="bogus"` answered an empty page, as if the vault held nothing:
    a status (PAM §7) or type (§5) that can never match is the caller's mistake, named."""

    async def body(client: Client) -> None:
        await _call(client, "remember", content="Lives in Porto")
        text = await _refused(client, "list_memories", status="gone")
        assert "'gone' is not a PAM status" in text and "any" in text, text
        text = await _refused(client, "list_memories", types=["feeling"])
        assert "'feeling' is not a PAM memory type" in text, text
        assert (await _call(client, "list_memories", status="any"))["total"] == 1

    _drive(_params(home), body)


def test_either_or_arguments_say_which_mistake_was_made(home: Path) -> None:
    """`supersede` and `import_memory` with neither alternative said "…, not both"."""

    async def body(client: Client) -> None:
        added = await _call(client, "remember", content="Lives in Porto")
        neither = await _refused(client, "supersede", old_id=added["memory"]["id"])
        assert "not both" not in neither and "content" in neither and "new_id" in neither
        both = await _refused(
            client, "supersede", old_id=added["memory"]["id"], content="x", new_id="y"
        )
        assert "not both" in both, both
        neither = await _refused(client, "import_memory")
        assert "not both" not in neither and "path" in neither and "content" in neither

    _drive(_params(home), body)


def test_an_inline_import_refused_names_the_content_not_a_temporary_file(home: Path) -> None:
    """A refused inline `import_memory` named the server's temporary file
    (/tmp/memvault-mcp-…/import.json): the caller never saw that path."""

    async def body(client: Client) -> None:
        text = await _refused(client, "import_memory", content="{}")
        assert "memvault-mcp-" not in text and "/tmp" not in text, text
        assert "the content" in text and '"schema"' in text, text
        text = await _refused(client, "import_memory", content={"format": "aimem-bundle"})
        assert "memvault-mcp-" not in text, text

    _drive(_params(home), body)


def test_a_prompt_asked_without_its_argument_is_refused_without_a_traceback(
    home: Path, tmp_path: Path
) -> None:
    """`prompts/get memory_context` without `query` (or with a blank one) was answered, but
    the server wrote a forty-line traceback to the client's log for each: an invalid
    request is the caller's mistake, named, and nothing more."""
    from mcp import ClientSession
    from mcp.client.stdio import stdio_client
    from mcp.shared.exceptions import MCPError

    log = tmp_path / "server.log"

    async def main() -> None:
        with log.open("w") as errlog:
            async with (
                stdio_client(_params(home), errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                with pytest.raises(MCPError) as missing:
                    await session.get_prompt("memory_context", {})
                assert "query" in missing.value.error.message
                with pytest.raises(MCPError) as blank:
                    await session.get_prompt("memory_context", {"query": " "})
                assert "empty" in blank.value.error.message
                done = await session.get_prompt("memory_context", {"query": "Porto"})
                assert done.messages
                # Nothing found is said in words, not sent as an empty prompt.
                none = await session.get_prompt("memory_context", {"query": "xylophone"})
                text = none.messages[0].content.text  # type: ignore[union-attr]
                assert text == "The vault holds no memory about this topic.\n", text

    anyio.run(main)
    assert "Traceback" not in log.read_text(), log.read_text()


def test_tool_descriptions_read_as_prose_without_the_source_indentation(home: Path) -> None:
    """A tool's description is its docstring; before Python 3.13 a docstring keeps the
    indentation of its source lines, so a client's model read "again,         or a
    rewording"."""

    async def body(client: Client) -> None:
        tools = (await client.list_tools()).tools
        assert len(tools) == 8
        for tool in tools:
            text = tool.description or ""
            assert text and "  " not in text and "\n " not in text, (tool.name, text)
        remember = next(t for t in tools if t.name == "remember")
        assert "the same fact again,\nor a rewording" in (remember.description or "")

    _drive(_params(home), body)
