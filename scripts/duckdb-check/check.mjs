// Asks DuckDB the queries of expected.json (made by `go run ./scripts/duckdb-check DB`)
// on the Parquet files that `ponte ingest` wrote from the same database (DB.parquet beside
// DB.db, or --parquet DIR), and compares the answers with SQLite's. Needs the npm package
// @duckdb/node-api next to it (.ci/run installs it).
//
//   node check.mjs ponte.parquet expected.json
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

const [dir, expectedPath] = process.argv.slice(2);
if (!dir || !expectedPath) {
  console.error('usage: node check.mjs PARQUET_DIR expected.json');
  process.exit(2);
}
const expected = JSON.parse(readFileSync(expectedPath, 'utf8'));
const instance = await DuckDBInstance.create(':memory:');
const con = await instance.connect();
for (const table of ['games', 'turns', 'tags']) {
  const file = resolve(join(dir, `${table}.parquet`)).replaceAll("'", "''");
  await con.run(`CREATE VIEW ${table} AS SELECT * FROM read_parquet('${file}')`);
}

// DuckDB's JSON rows give big integers as strings; SQLite's averages are floats.
const same = (a, b) => {
  if (a === null || b === null) return a === b;
  const x = Number(a), y = Number(b);
  return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
};
// A file DuckDB refuses (a string that is not valid UTF-8, ...) fails every query that
// reads it: each is reported, its error cut short (DuckDB quotes the whole bad value).
let failed = 0;
for (const { name, sql, value } of expected) {
  let got;
  try {
    const reader = await con.runAndReadAll(sql);
    got = Object.values(reader.getRowObjectsJson()[0])[0];
  } catch (e) {
    failed++;
    const msg = String(e.message ?? e);
    console.log(`FAIL ${name}: DuckDB refuses: ${msg.length > 300 ? msg.slice(0, 300) + '…' : msg}`);
    continue;
  }
  const ok = same(got, value);
  if (!ok) failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}: DuckDB ${got}, SQLite ${value}`);
}
if (failed > 0) {
  console.error(`${failed} of ${expected.length} answers differ`);
  process.exit(1);
}
console.log(`DuckDB reads the Parquet files as SQLite holds the tables: ${expected.length} answers agree`);
