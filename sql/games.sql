-- The views the other files of sql/ read: games and tags, from the Parquet files that
-- `ponte ingest` writes (one folder), or from many shards' folders as one table.
-- Set the folder first, then read this file (DuckDB's command-line tool):
--
--   SET VARIABLE parquet = 'ponte.parquet';        -- one folder
--   SET VARIABLE parquet = 'shards/*';             -- every shard's folder
--   .read sql/games.sql
--   .read sql/boards.sql
--
-- A game met in several shards (the same games.game_id: the stable hash of its size,
-- supply and moves) counts once, as one database keeps the first copy it meets: the copy
-- of the first shard in the order of the folders' names, then the first stored in that
-- shard. Its duplicates are then every further copy met, in any shard. Ingest the
-- shards' files in the same order into one database and `ponte stats` says the same.
-- The column shard names the folder of the copy kept: games.id and turns.game are
-- numbers within a shard, so join turns on the shard and the number.

CREATE OR REPLACE VIEW games AS
SELECT * EXCLUDE (filename, copy, copies, shard_duplicates)
       REPLACE (shard_duplicates + copies - 1 AS duplicates)
FROM (
    SELECT *,
           row_number() OVER (PARTITION BY game_id ORDER BY filename, id) AS copy,
           count(*) OVER (PARTITION BY game_id) AS copies,
           sum(duplicates) OVER (PARTITION BY game_id) AS shard_duplicates,
           parse_dirpath(filename) AS shard
    FROM read_parquet(getvariable('parquet') || '/games.parquet', filename = true)
)
WHERE copy = 1;

-- The tags of the games above: those of the copy kept.
CREATE OR REPLACE VIEW tags AS
SELECT t.game_id, t.seq, t.name, t.value
FROM read_parquet(getvariable('parquet') || '/tags.parquet', filename = true) t
JOIN games g ON g.game_id = t.game_id AND g.shard = parse_dirpath(t.filename);

-- A proportion with its 95% Wilson score interval, as `ponte stats --json` writes a rate:
-- hits of n (a draw counts ½ in a score); with n = 0 the rate is 0 and the interval [0, 1].
CREATE OR REPLACE MACRO wilson_den(n) AS 1 + 1.959963984540054 * 1.959963984540054 / n;
CREATE OR REPLACE MACRO wilson_centre(p, n) AS
    (p + 1.959963984540054 * 1.959963984540054 / (2 * n)) / wilson_den(n);
CREATE OR REPLACE MACRO wilson_half(p, n) AS
    1.959963984540054 / wilson_den(n)
    * sqrt(p * (1 - p) / n + 1.959963984540054 * 1.959963984540054 / (4 * n * n));
CREATE OR REPLACE MACRO rate(hits, n) AS CASE WHEN n > 0 THEN {
    'hits': hits::DOUBLE, 'n': n::BIGINT, 'p': hits / n,
    'lo': greatest(0, wilson_centre(hits / n, n) - wilson_half(hits / n, n)),
    'hi': least(1, wilson_centre(hits / n, n) + wilson_half(hits / n, n))}
  ELSE {'hits': 0::DOUBLE, 'n': 0::BIGINT, 'p': 0::DOUBLE, 'lo': 0::DOUBLE, 'hi': 1::DOUBLE} END;
