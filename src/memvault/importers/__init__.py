"""Provider importers: a provider's data export, as the user downloaded it, becomes PAM
normalized conversations (§25) and the memories the provider already exports.

Each provider is one module with one `Importer` subclass (see `base.py`); `detect.py` picks
the importer for a target by its content.
"""
