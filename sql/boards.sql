-- The headline of `ponte stats`, per board size and population (people, bots): the
-- legal games, those decided (their result known), those finished (over by the rules),
-- and the balance of the pie rule over the decided games that reached turn 2: how often
-- the second player swapped, and the opener's score, in all and in each branch, with
-- Light's and Dark's wins and the draws. Every column is named as in `ponte stats --json`
-- (.boards[]), a rate being {hits, n, p, lo, hi}. Needs sql/games.sql.

SELECT size, population,
       count(*) AS games,
       count(*) FILTER (decided) AS decided,
       count(*) FILTER (over) AS finished,
       {'games': count(*) FILTER (decided AND turns >= 2),
        'swapped': rate(count(*) FILTER (decided AND turns >= 2 AND swapped),
                        count(*) FILTER (decided AND turns >= 2)),
        'opener': rate(coalesce(sum(opener_score) FILTER (turns >= 2), 0),
                       count(opener_score) FILTER (turns >= 2)),
        'opener_swapped': rate(coalesce(sum(opener_score) FILTER (turns >= 2 AND swapped), 0),
                               count(opener_score) FILTER (turns >= 2 AND swapped)),
        'opener_kept': rate(coalesce(sum(opener_score) FILTER (turns >= 2 AND NOT swapped), 0),
                            count(opener_score) FILTER (turns >= 2 AND NOT swapped)),
        'light_wins': rate(count(*) FILTER (decided AND turns >= 2 AND final_result = '1-0'),
                           count(*) FILTER (decided AND turns >= 2)),
        'dark_wins': rate(count(*) FILTER (decided AND turns >= 2 AND final_result = '0-1'),
                          count(*) FILTER (decided AND turns >= 2)),
        'draws': rate(count(*) FILTER (decided AND turns >= 2 AND final_result = '1/2-1/2'),
                      count(*) FILTER (decided AND turns >= 2))} AS swap
FROM games
WHERE legal
GROUP BY size, population
ORDER BY size, population;
