import { readFileSync } from 'node:fs';
import type { VcsHost } from '@trackline/contracts';
import { describe, expect, it } from 'vitest';
import { classifyHook, normalizePush } from './classify-hook.js';
import { splitRawAuthor } from './normalize-bitbucket.js';
import { authorIsPusher } from './push-event.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}.json`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;

/** The shared scenario every push fixture encodes (see __fixtures__/README.md). */
const summary = (host: VcsHost, name: string) =>
  normalizePush(host, fixture(name)).commits.map((c) => [
    c.sha.slice(0, 7),
    c.branch,
    c.authorEmail,
    c.message.split('\n').at(-1) || c.message.split('\n').at(-2),
  ]);

describe('normalizePush', () => {
  it('GitHub push: ref → branch, every commit with its author', () => {
    const push = normalizePush('github', fixture('github-push'));
    expect(push.repository).toBe('trackline/webapp');
    expect(push.commits[0]).toEqual({
      sha: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
      message: 'Fix redirect loop after login\n\n#TL-1 Fixed',
      url: 'https://github.com/trackline/webapp/commit/0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
      authorName: 'Alice Example',
      authorEmail: 'alice@example.com',
      timestamp: '2024-03-11T10:12:31+01:00',
      branch: 'main',
      authorIdentities: ['email:alice@example.com', 'login:alice-ex'],
    });
    expect(push.pusher).toEqual(['email:alice@example.com', 'login:alice-ex', 'login:alice-ex']);
    expect(summary('github', 'github-push')).toEqual([
      ['0d1a26e', 'main', 'alice@example.com', '#TL-1 Fixed'],
      ['6113728', 'main', 'Bob@Example.com', '#TL-3 tag performance'],
      ['a4b7c1d', 'main', 'alice@example.com', 'Update README'],
    ]);
  });

  it('GitLab Push Hook', () => {
    const push = normalizePush('gitlab', fixture('gitlab-push'));
    expect(push.repository).toBe('trackline/webapp');
    expect(summary('gitlab', 'gitlab-push')).toEqual([
      ['b6568db', 'main', 'alice@example.com', '#TL-1 Fixed'],
      ['da15608', 'main', 'Bob@Example.com', '#TL-3 tag performance'],
    ]);
  });

  it('Bitbucket Cloud repo:push: branch from the change, author from raw, oldest commit first', () => {
    const push = normalizePush('bitbucket', fixture('bitbucket-cloud-push'));
    expect(push.repository).toBe('trackline/webapp');
    expect(push.commits[0]?.url).toBe(
      'https://bitbucket.org/trackline/webapp/commits/1e2d3c4b5a6978877665544332211009f8e7d6c5',
    );
    expect(summary('bitbucket', 'bitbucket-cloud-push')).toEqual([
      ['1e2d3c4', 'main', 'alice@example.com', '#TL-1 Fixed'],
      ['2f3e4d5', 'main', 'Bob@Example.com', '#TL-3 tag performance'],
    ]);
  });

  it('legacy Bitbucket POST service: URL from canon_url and absolute_url, UTC timestamp', () => {
    const push = normalizePush('bitbucket', fixture('bitbucket-post-service'));
    expect(push.repository).toBe('trackline/webapp');
    expect(push.commits[0]).toMatchObject({
      sha: '4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d',
      url: 'https://bitbucket.org/trackline/webapp/commits/4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d',
      authorName: 'Alice Example',
      timestamp: '2014-03-13T08:30:00+00:00',
    });
    expect(summary('bitbucket', 'bitbucket-post-service')).toEqual([
      ['4c5d6e7', 'main', 'alice@example.com', '#TL-1 Fixed'],
      ['5d6e7f8', 'main', 'Bob@Example.com', '#TL-3 tag performance'],
    ]);
  });

  it.each<[VcsHost, string, boolean[]]>([
    ['github', 'github-push', [true, false, true]],
    // The fixture's pusher hides the e-mail, and GitLab commits carry no username.
    ['gitlab', 'gitlab-push', [false, false]],
    ['bitbucket', 'bitbucket-cloud-push', [true, false]],
    ['bitbucket', 'bitbucket-post-service', [true, false]],
  ])('%s %s: whether each commit author is the pusher the host names', (host, name, expected) => {
    const push = normalizePush(host, fixture(name));
    expect(push.commits.map((c) => authorIsPusher(c, push.pusher))).toEqual(expected);
  });

  it('GitLab: a public pusher e-mail matches the author e-mail; [REDACTED] matches nothing', () => {
    const json = fixture('gitlab-push');
    const withEmail = normalizePush('gitlab', { ...json, user_email: 'Alice@Example.com' });
    expect(withEmail.commits.map((c) => authorIsPusher(c, withEmail.pusher))).toEqual([true, false]);
    const redacted = normalizePush('gitlab', { ...json, user_email: '[REDACTED]' });
    expect(redacted.pusher).toEqual(['login:alice']);
  });

  it.each<[VcsHost, Record<string, unknown>, string]>([
    [
      'github',
      { ref: 'refs/heads/main', repository: { full_name: 'a/b' } },
      'not a GitHub push payload: commits: ',
    ],
    ['github', { ref: 'x', repository: { full_name: 'a/b' }, commits: [{ id: 1 }] }, 'commits.0.id: '],
    [
      'gitlab',
      { object_kind: 'tag_push', ref: 'x', project: {}, commits: [] },
      'not a GitLab push payload: object_kind: ',
    ],
    [
      'bitbucket',
      { push: { changes: 'x' }, repository: { full_name: 'a/b' } },
      'not a Bitbucket repo:push payload: push.changes: ',
    ],
    [
      'bitbucket',
      { canon_url: 'https://bitbucket.org', commits: [] },
      'not a Bitbucket POST service payload: repository: ',
    ],
    ['bitbucket', { zen: 'x' }, 'not a Bitbucket push: neither push.changes nor commits'],
  ])('%s: a malformed payload is a 400 naming the field', (host, json, message) => {
    expect(() => normalizePush(host, json)).toThrow(message);
  });
});

describe('classifyHook', () => {
  it.each<[VcsHost, Record<string, string>, string]>([
    ['github', { 'x-github-event': 'push' }, 'push'],
    ['github', { 'x-github-event': 'ping' }, 'ping'],
    ['github', { 'x-github-event': 'issues' }, 'other'],
    ['github', {}, 'push'],
    ['gitlab', { 'x-gitlab-event': 'Push Hook' }, 'push'],
    ['gitlab', { 'x-gitlab-event': 'Tag Push Hook' }, 'other'],
    ['bitbucket', { 'x-event-key': 'repo:push' }, 'push'],
    ['bitbucket', { 'x-event-key': 'diagnostics:ping' }, 'ping'],
    ['bitbucket', { 'x-event-key': 'pullrequest:created' }, 'other'],
    ['bitbucket', {}, 'push'],
  ])('%s %j → %s', (host, headers, kind) => {
    expect(classifyHook(host, (name) => headers[name]).kind).toBe(kind);
  });
});

describe('splitRawAuthor', () => {
  it.each([
    ['Jane Doe <jane@example.com>', { name: 'Jane Doe', email: 'jane@example.com' }],
    ['<jane@example.com>', { name: 'jane@example.com', email: 'jane@example.com' }],
    ['jane', { name: 'jane', email: null }],
    ['Jane <>', { name: 'Jane', email: null }],
  ])('%j', (raw, expected) => {
    expect(splitRawAuthor(raw)).toEqual(expected);
  });
});
