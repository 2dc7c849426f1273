"""The data layer: reading YAML files with positions (:mod:`.yaml_reader`, :mod:`.documents`),
within limits against hostile input; JSON Schema checks with located messages
(:mod:`.schemas`); the bundled cards, schemas and variants (:mod:`.bundled`).

Imports nothing above :mod:`machikoro.errors`. Layer packages import nothing in their
``__init__``: importing one module never pulls in another's libraries.
"""
