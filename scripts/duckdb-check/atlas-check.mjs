// Runs sql/atlas-merge.sql on the Parquet files of an atlas's shards and compares what it
// gives with `ponte atlas show --json` of the database `ponte atlas merge` made of the same
// shards (.ci/run): no game in two versions, the games of each stage, and per class the
// main rounds' games, wins, draws, losses and p̂. Exits 1 when a number differs.
//
//   node atlas-check.mjs 'SHARDS_GLOB' sql/atlas-merge.sql ATLAS.json
//
// Needs the npm package @duckdb/node-api next to it (.ci/run installs it).
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [glob, sqlFile, atlasFile] = process.argv.slice(2);
if (!glob || !sqlFile || !atlasFile) {
  console.error("usage: node atlas-check.mjs 'SHARDS_GLOB' atlas-merge.sql ATLAS.json");
  process.exit(2);
}
const atlas = JSON.parse(readFileSync(atlasFile, 'utf8'));
const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
await con.run(`SET VARIABLE atlas = '${glob.replaceAll("'", "''")}'`);
await con.run(readFileSync(sqlFile, 'utf8'));
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJson();

const failures = [];
let compared = 0;
const same = (what, got, want) => {
  compared++;
  const x = Number(got), y = Number(want);
  if (!(Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(x), Math.abs(y)))) {
    failures.push(`${what}: SQL ${got}, ponte ${want}`);
  }
};

const conflicts = await rows('SELECT stage, class, idx, versions FROM atlas_conflicts');
for (const c of conflicts) failures.push(`game ${c.stage} ${c.class} ${c.idx}: ${c.versions} versions`);
const copies = await rows('SELECT sum(copies) AS copies, count(*) AS games FROM atlas_merged');
const byStage = await rows('SELECT stage, count(*) AS games FROM atlas_merged GROUP BY stage');
const stage = Object.fromEntries(byStage.map((r) => [r.stage, Number(r.games)]));
same('games', copies[0].games, atlas.games);
same('main games', stage.main ?? 0, atlas.main_games);

const tally = await rows("SELECT * FROM atlas_tally WHERE stage = 'main'");
const byClass = new Map(tally.map((r) => [Number(r.class), r]));
for (const e of atlas.estimates) {
  const r = byClass.get(e.class);
  if (!r) { failures.push(`class ${e.class}: no games in the SQL`); continue; }
  for (const k of ['games', 'wins', 'draws', 'losses', 'p']) same(`class ${e.class} ${k}`, r[k], e[k]);
  byClass.delete(e.class);
}
for (const c of byClass.keys()) failures.push(`class ${c}: in the SQL only`);
for (const e of atlas.confirmed ?? []) {
  const [r] = await rows(`SELECT * FROM atlas_tally WHERE stage = 'confirm' AND class = ${Number(e.class)}`);
  if (!r) { failures.push(`confirmed class ${e.class}: no games in the SQL`); continue; }
  for (const k of ['games', 'wins', 'draws', 'losses']) same(`confirmed class ${e.class} ${k}`, r[k], e[k]);
}

for (const f of failures) console.log(`FAIL ${f}`);
console.log(`${compared} numbers compared over ${copies[0].copies} rows of the shards (${copies[0].games} games), ${failures.length} differ`);
process.exit(failures.length ? 1 : 0);
