"""Host-side tools for boardside: simulator, deploy, serial client."""
