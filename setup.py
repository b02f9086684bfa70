"""Build the C accelerators: RFC 8785 canonical JSON, JSON span scanning and the PAM
validator's per-memory checks (`_speedups`), the conservative memory schema check
(`_memory_schema`), the ChatGPT importer's per-message loop (`importers._chatgpt`) and its
converter of common conversations from bytes to bytes (`importers._chatgpt_direct`), and
the full-text analysis (`recall._tokenizer`: not a Python module but a SQLite extension that
memvault.recall.analysis loads into each connection; it links Debian's libstemmer).

Everything else is declared in pyproject.toml.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "memvault._speedups",
            sources=["src/memvault/_speedups.c"],
            extra_compile_args=["-O2", "-std=c99", "-Wall"],
        ),
        Extension(
            "memvault._memory_schema",
            sources=["src/memvault/_memory_schema.c"],
            extra_compile_args=["-O2", "-std=c99", "-Wall"],
        ),
        Extension(
            "memvault.importers._chatgpt",
            sources=["src/memvault/importers/_chatgpt.c"],
            depends=["src/memvault/importers/_chatgpt_common.h"],
            extra_compile_args=["-O2", "-std=c99", "-Wall"],
        ),
        Extension(
            "memvault.importers._chatgpt_direct",
            sources=["src/memvault/importers/_chatgpt_direct.c"],
            depends=["src/memvault/importers/_chatgpt_common.h"],
            extra_compile_args=["-O2", "-std=c99", "-Wall"],
        ),
        Extension(
            "memvault.recall._tokenizer",
            sources=["src/memvault/recall/_tokenizer.c"],
            libraries=["stemmer"],
            extra_compile_args=["-O2", "-std=c99", "-Wall"],
        ),
    ]
)
