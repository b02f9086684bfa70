"""Storage backends behind the vault: the contract (`base`) and its implementations."""
