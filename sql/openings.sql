-- The opening table of `ponte stats`, per board size and population: every opening
-- folded by the board's symmetries (games.opening), over the decided games that reached
-- turn 2: its games, its share of the board's, how often the second player swapped, and
-- the opener's score in all and in each branch. Columns named as in `ponte stats --json`
-- (.boards[].openings[]), the opening's two cells as a and b; most played first.
-- Needs sql/games.sql.

SELECT size, population,
       split_part(opening, ' ', 1) AS a, split_part(opening, ' ', 2) AS b,
       count(*) AS games,
       rate(count(*), sum(count(*)) OVER (PARTITION BY size, population)) AS share,
       rate(count(*) FILTER (swapped), count(*)) AS swapped,
       rate(sum(opener_score), count(*)) AS opener,
       rate(coalesce(sum(opener_score) FILTER (swapped), 0), count(*) FILTER (swapped)) AS opener_swapped,
       rate(coalesce(sum(opener_score) FILTER (NOT swapped), 0), count(*) FILTER (NOT swapped)) AS opener_kept
FROM games
WHERE legal AND decided AND turns >= 2
GROUP BY size, population, opening
ORDER BY size, population, games DESC, a, b;
