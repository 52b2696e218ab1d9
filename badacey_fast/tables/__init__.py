"""Lookup tables: the file format and its integrity checks (:mod:`.format`), their generation from
:mod:`badacey_fast.rules` (:mod:`.generate`, standard library only: the build step, before numpy is
installed), and the same class maps over numpy arrays (:mod:`.arrays`: the Python twin's bulk evaluation).
"""

from __future__ import annotations

from badacey_fast.tables.format import HANDS5, BADUGI_MASKS, ENTRIES, MAGIC, FORMAT_VERSION, HEADER_SIZE, FILE_SIZE, TABLE_NAMES, REBUILD_HINT, data_dir, table_path, pack_header, read_table, map_table, check_present, verify_policy, stamp_path

__all__ = ['HANDS5', 'BADUGI_MASKS', 'ENTRIES', 'MAGIC', 'FORMAT_VERSION', 'HEADER_SIZE', 'FILE_SIZE', 'TABLE_NAMES', 'REBUILD_HINT', 'data_dir', 'table_path', 'pack_header', 'read_table', 'map_table', 'check_present', 'verify_policy', 'stamp_path']
