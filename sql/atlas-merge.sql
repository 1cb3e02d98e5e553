-- The merge of an opening atlas's shards (`ponte atlas merge`) in DuckDB, from their Parquet
-- files alone (`ponte atlas show --db shard-i.db --parquet shard-i`). Set the folders first:
--
--   SET VARIABLE atlas = 'shard-*';
--   .read sql/atlas-merge.sql
--   SELECT * FROM atlas_conflicts;               -- must be empty
--   SELECT * FROM atlas_tally ORDER BY class;
--
-- A game is counted once, by its stage, class and index, however many shards hold it (a
-- shard that started from the merged database holds the earlier rounds too). A key with two
-- different games is a conflict: shards of other settings, which `ponte atlas merge` refuses.

CREATE OR REPLACE TABLE atlas_merged AS
SELECT stage, class, idx,
       any_value(seed) AS seed, any_value(points) AS points, any_value(turns) AS turns,
       any_value(swapped) AS swapped, any_value(bot) AS bot, any_value(moves) AS moves,
       count(DISTINCT (seed, points, turns, swapped, bot, moves)) AS versions,
       count(*) AS copies
FROM read_parquet(getvariable('atlas') || '/atlas_games.parquet')
GROUP BY stage, class, idx;

CREATE OR REPLACE VIEW atlas_conflicts AS
SELECT * FROM atlas_merged WHERE versions > 1;

-- Light's tally per class and stage: points are Light's in halves (2 a win, 1 a draw).
-- In the main rounds this counts every game played; `ponte atlas merge` counts a class's
-- games up to the look at which it stopped. The two agree when the shards played only what
-- the plans asked, as `ponte atlas run --shard` does.
CREATE OR REPLACE VIEW atlas_tally AS
SELECT stage, class,
       count(*) AS games,
       count(*) FILTER (WHERE points = 2) AS wins,
       count(*) FILTER (WHERE points = 1) AS draws,
       count(*) FILTER (WHERE points = 0) AS losses,
       sum(points) / (2 * count(*)) AS p
FROM atlas_merged
GROUP BY stage, class;
