"""Where streamview keeps what the person set: the settings file and the user folders
(config, cache, state) it lives in. Imports only the core."""
