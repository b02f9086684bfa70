"""Build the C accelerator for RFC 8785 canonical JSON and JSON span scanning.

Everything else is declared in pyproject.toml.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "memvault._speedups",
            sources=["src/memvault/_speedups.c"],
            extra_compile_args=["-O2", "-std=c99", "-Wall"],
        )
    ]
)
