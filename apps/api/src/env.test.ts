import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { attachmentStoreFromEnv, ENV_KEYS, processCountFromEnv, readEnv } from './env.js';

describe('TRACKLINE_PROCESSES', () => {
  it('defaults to one per core on PostgreSQL and to one on SQLite; a setting wins', () => {
    const pg = 'postgres://postgres@127.0.0.1:5432/x';
    expect(processCountFromEnv(readEnv({}), 8)).toBe(1);
    expect(processCountFromEnv(readEnv({ DATABASE_URL: pg }), 8)).toBe(8);
    expect(processCountFromEnv(readEnv({ DATABASE_URL: pg, TRACKLINE_PROCESSES: '3' }), 8)).toBe(3);
    expect(processCountFromEnv(readEnv({ TRACKLINE_PROCESSES: '2' }), 8)).toBe(2);
  });

  it('refuses what is not a count from 1 to 64, naming the setting', () => {
    for (const bad of ['0', '65', 'two', '1.5'])
      expect(() => readEnv({ TRACKLINE_PROCESSES: bad })).toThrow(/TRACKLINE_PROCESSES/);
  });
});

describe('TRACKLINE_ATTACHMENTS_STORE', () => {
  const pg = 'postgres://postgres@127.0.0.1:5432/x';
  it('defaults to the database on PostgreSQL and to the folder on SQLite; a shared folder on PostgreSQL', () => {
    expect(attachmentStoreFromEnv(readEnv({ DATABASE_URL: pg }))).toEqual({ kind: 'postgres' });
    expect(attachmentStoreFromEnv(readEnv({}))).toEqual({
      kind: 'directory',
      dir: 'data/attachments',
      shared: false,
    });
    expect(
      attachmentStoreFromEnv(
        readEnv({
          DATABASE_URL: pg,
          TRACKLINE_ATTACHMENTS_STORE: 'directory',
          TRACKLINE_ATTACHMENTS_DIR: '/mnt/t',
        }),
      ),
    ).toEqual({ kind: 'directory', dir: '/mnt/t', shared: true });
  });

  it('refuses the database store without a database URL, and unknown stores, naming the setting', () => {
    expect(() => readEnv({ TRACKLINE_ATTACHMENTS_STORE: 'postgres' })).toThrow(
      /TRACKLINE_ATTACHMENTS_STORE: postgres needs DATABASE_URL/,
    );
    expect(() => readEnv({ TRACKLINE_ATTACHMENTS_STORE: 's3' })).toThrow(/TRACKLINE_ATTACHMENTS_STORE/);
  });
});

describe('TRACKLINE_ALLOWED_ORIGINS', () => {
  it('reads comma-separated origins as origins (lower-cased, no path), none by default', () => {
    expect(readEnv({}).TRACKLINE_ALLOWED_ORIGINS).toEqual([]);
    expect(
      readEnv({ TRACKLINE_ALLOWED_ORIGINS: ' https://Tools.Example.com , http://127.0.0.1:8081/' })
        .TRACKLINE_ALLOWED_ORIGINS,
    ).toEqual(['https://tools.example.com', 'http://127.0.0.1:8081']);
  });

  it('refuses what is not an origin, naming the setting', () => {
    for (const bad of ['tools.example.com', 'https://tools.example.com/path', 'ftp://x', '*'])
      expect(() => readEnv({ TRACKLINE_ALLOWED_ORIGINS: bad })).toThrow(/TRACKLINE_ALLOWED_ORIGINS/);
  });
});

describe('.env.example and docs/configuration.md', () => {
  const example = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
  const docs = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
  const lines = [...example.matchAll(/^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => ({
    commented: m[1] !== undefined,
    key: m[2] as string,
    value: m[3] as string,
  }));

  it('name every setting the server reads, once each, and nothing else', () => {
    expect(lines.map((l) => l.key).sort()).toEqual([...ENV_KEYS].sort());
  });

  it('show each default as the server applies it', () => {
    const defaults = readEnv({}) as Record<string, unknown>;
    const wrong = lines.filter(
      (l) =>
        l.commented && l.value !== '' && defaults[l.key] !== undefined && String(defaults[l.key]) !== l.value,
    );
    expect(wrong.map((l) => `${l.key}=${l.value} (default ${String(defaults[l.key])})`)).toEqual([]);
  });

  it('hold uncommented examples the server accepts', () => {
    const set = Object.fromEntries(lines.filter((l) => !l.commented).map((l) => [l.key, l.value]));
    expect(Object.keys(set).length).toBeGreaterThan(0);
    expect(() => readEnv(set)).not.toThrow();
  });

  it('are documented: docs/configuration.md names every setting', () => {
    expect(ENV_KEYS.filter((key) => !docs.includes(key))).toEqual([]);
  });
});
