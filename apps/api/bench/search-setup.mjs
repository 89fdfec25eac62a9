// What the search benches (search.mjs, search-links.mjs) share before their import: the database
// (a SQLite file, or a PostgreSQL database created afresh, or kept and reused) and its rows ahead
// of the issues: migrated and seeded, the 20 projects with their Subsystem values, the 200 users.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PROJECTS, project, SUBSYSTEMS, USERS } from './search-data.mjs';

/**
 * The bench's database: the SQLite `file`, or the database `pgDb` on the PostgreSQL server `pg`.
 * `open()` says whether a kept one (`keep`) that already holds issues is reused (queries only);
 * otherwise it drops and creates a PostgreSQL one afresh. `drop()` removes it at the end, unless kept.
 */
export function searchDatabase({ pg, pgDb, file, keep }) {
  const pgUrl = pg ? `${pg.replace(/\/$/, '')}/${pgDb}` : undefined;
  const pgHasIssues = () => {
    try {
      const out = execFileSync('psql', [pgUrl, '-Atc', 'select count(*) from issues'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      return Number(String(out).trim()) > 0;
    } catch {
      return false;
    }
  };
  return {
    pgUrl,
    /** The domain's connection settings of the database. */
    config: pg ? { kind: 'postgresql', url: pgUrl } : { kind: 'sqlite', file },
    open() {
      const reuse = keep && (pg ? pgHasIssues() : existsSync(file));
      if (pg && !reuse) {
        execFileSync('psql', [pg, '-qc', `drop database if exists ${pgDb}`], { stdio: 'ignore' });
        execFileSync('psql', [pg, '-qc', `create database ${pgDb}`]);
      }
      return reuse;
    },
    drop() {
      if (pg && !keep)
        execFileSync('psql', [pg, '-qc', `drop database if exists ${pgDb}`], { stdio: 'ignore' });
    },
  };
}

/**
 * Migrates and seeds the database (root's password `root-password`), creates the projects (named
 * `${name} 1`…) with their Subsystem values and the users u1…u200 (`fullName(u)`), then lets the
 * bench add its own rows (`more(fork, root)`).
 */
export async function prepareSearchData(domain, config, { name, fullName, more }) {
  const orm = await domain.createOrm(config);
  await domain.migrate(orm);
  await domain.seed(orm, { adminPassword: 'root-password' });
  const fork = () => orm.em.fork();
  const root = await domain.loadActor(fork(), await fork().findOneOrFail(domain.User, { loginKey: 'root' }));
  for (let p = 0; p < PROJECTS; p++) {
    await domain.createProject(fork(), root, { shortName: project(p), name: `${name} ${p + 1}` });
    for (const value of SUBSYSTEMS)
      await domain.addFieldValue(fork(), root, project(p), 'Subsystem', { name: value });
  }
  for (let u = 1; u <= USERS; u++)
    await domain.insertUser(fork(), { login: `u${u}`, fullName: fullName(u), email: `u${u}@example.com` });
  await more?.(fork, root);
  await orm.close(true);
}
