// Runs the DuckDB SQL of sql/ on Parquet files alone and compares every number it gives
// with `ponte stats --json` on a database of the same games (.ci/run): the verification
// totals, each board's games, decided and finished games and pie-rule rates (per board
// size and population), each card's games, and every row of the opening tables. Exits 1
// when any number differs, or a board or an opening is on one side only.
//
//   node sql-check.mjs PARQUET SQL_DIR STATS.json...
//
// PARQUET is a folder written by `ponte ingest` or a glob of shards' folders ('shards/*');
// each STATS.json is the output of `ponte stats --json` (give --population people and
// --population bots too, for both populations' tables). Needs the npm package
// @duckdb/node-api next to it (.ci/run installs it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const [parquet, sqlDir, ...statsFiles] = process.argv.slice(2);
if (!parquet || !sqlDir || statsFiles.length === 0) {
  console.error('usage: node sql-check.mjs PARQUET SQL_DIR STATS.json...');
  process.exit(2);
}
const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
await con.run(`SET VARIABLE parquet = '${parquet.replaceAll("'", "''")}'`);
await con.run(readFileSync(join(sqlDir, 'games.sql'), 'utf8'));
const query = async (file) => (await con.runAndReadAll(readFileSync(join(sqlDir, file), 'utf8'))).getRowObjectsJson();

let compared = 0;
const failures = [];
const fail = (msg) => failures.push(msg);
// DuckDB's JSON rows give big integers as strings; the intervals are computed in another
// order of floating-point operations than Go's.
const same = (a, b) => {
  const x = Number(a), y = Number(b);
  return Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(x), Math.abs(y));
};
// compare checks every leaf of got (a row of the SQL) against the value at the same path
// in want (part of ponte stats' JSON).
const compare = (what, got, want, path = '') => {
  for (const [key, value] of Object.entries(got)) {
    const p = path ? `${path}.${key}` : key;
    if (want === null || typeof want !== 'object' || !(key in want)) {
      fail(`${what}: ${p} is not in ponte stats' JSON`);
    } else if (value === null) {
      compared++;
      fail(`${what}: ${p}: SQL NULL, ponte stats ${want[key]}`);
    } else if (typeof value === 'object') {
      compare(what, value, want[key], p);
    } else {
      compared++;
      if (typeof value === 'string' && isNaN(Number(value)) ? value !== want[key] : !same(value, want[key])) {
        fail(`${what}: ${p}: SQL ${value}, ponte stats ${want[key]}`);
      }
    }
  }
};

const reports = statsFiles.map((f) => ({ file: f, r: JSON.parse(readFileSync(f, 'utf8')) }));

// The verification totals.
const [verification] = await query('verification.sql');
for (const { file, r } of reports) compare(`verification (${file})`, verification, r.verification);

// The boards, by size and population; the cards' games.
const boards = new Map();
for (const row of await query('boards.sql')) boards.set(`${row.size} ${row.population}`, row);
const seen = new Set();
for (const { file, r } of reports) {
  for (const b of r.boards) {
    const key = `${b.size} ${b.population}`;
    const row = boards.get(key);
    if (!row) { fail(`board ${key} (${file}): not in boards.sql`); continue; }
    seen.add(key);
    compare(`board ${key}`, row, b);
  }
  for (const c of r.cards) {
    const row = boards.get(`${c.size} ${c.population}`);
    if (c.population === 'all') continue; // the SQL tables people and bots apart
    if (!row) { fail(`card ${c.size} ${c.population} (${file}): not in boards.sql`); continue; }
    compare(`card ${c.size} ${c.population}`, { games: row.games }, c);
  }
}
for (const key of boards.keys()) {
  if (!seen.has(key)) fail(`board ${key}: in boards.sql, in no report of ponte stats given`);
}

// The opening tables, of the boards compared.
const openings = new Map();
for (const row of await query('openings.sql')) openings.set(`${row.size} ${row.population} ${row.a} ${row.b}`, row);
const matched = new Set();
for (const { r } of reports) {
  for (const b of r.boards) {
    for (const o of b.openings) {
      const key = `${b.size} ${b.population} ${o.a} ${o.b}`;
      const row = openings.get(key);
      if (!row) { fail(`opening ${key}: not in openings.sql`); continue; }
      matched.add(key);
      compare(`opening ${key}`, row, { ...o, size: b.size, population: b.population });
    }
  }
}
for (const key of openings.keys()) {
  if (seen.has(key.split(' ').slice(0, 2).join(' ')) && !matched.has(key)) {
    fail(`opening ${key}: in openings.sql, not in ponte stats`);
  }
}

for (const f of failures.slice(0, 30)) console.log(`FAIL ${f}`);
if (failures.length > 0) {
  console.error(`${failures.length} differences between the SQL of ${sqlDir} on ${parquet} and ponte stats (${compared} numbers compared)`);
  process.exit(1);
}
console.log(`the SQL of ${sqlDir} on ${parquet} gives ponte stats' numbers: ${compared} numbers of ${boards.size} boards and ${openings.size} openings agree`);
