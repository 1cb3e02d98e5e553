-- What `ponte stats` says of the records before any statistic (.verification of
-- `ponte stats --json`): the distinct games, how many are legal, illegal (a rule broken)
-- or unreadable, and the further copies met of them. Needs sql/games.sql.

SELECT count(*) AS games,
       count(*) FILTER (legal) AS legal,
       count(*) FILTER (NOT legal AND NOT unreadable) AS illegal,
       count(*) FILTER (unreadable) AS unreadable,
       coalesce(sum(duplicates), 0) AS duplicates
FROM games;
