import type { VcsHost } from '@trackline/contracts';
import { DomainError } from '../errors.js';
import type { HeaderReader } from './hook-request.js';
import { normalizeBitbucketCloud, normalizeBitbucketPostService } from './normalize-bitbucket.js';
import { normalizeGithub } from './normalize-github.js';
import { normalizeGitlab } from './normalize-gitlab.js';
import type { HookEvent, PushEvent } from './push-event.js';

/**
 * The event a hook call carries. Without an event header (curl, the legacy services) a
 * payload is taken for a push. Pings (GitHub on hook creation, Bitbucket's diagnostics) and
 * other events are answered without being stored.
 */
export function classifyHook(host: VcsHost, header: HeaderReader): HookEvent {
  switch (host) {
    case 'github': {
      const name = header('x-github-event')?.trim() || 'push';
      if (name === 'push') return { kind: 'push', name };
      return { kind: name === 'ping' ? 'ping' : 'other', name };
    }
    case 'gitlab': {
      const name = header('x-gitlab-event')?.trim() || 'Push Hook';
      return { kind: name === 'Push Hook' ? 'push' : 'other', name };
    }
    case 'bitbucket': {
      const name = header('x-event-key')?.trim() || 'repo:push';
      if (name === 'repo:push') return { kind: 'push', name };
      return { kind: name === 'diagnostics:ping' ? 'ping' : 'other', name };
    }
  }
}

/** The push in the host's format → one PushEvent; a wrong shape is a 400 naming the field. */
export function normalizePush(host: VcsHost, json: Record<string, unknown>): PushEvent {
  switch (host) {
    case 'github':
      return normalizeGithub(json);
    case 'gitlab':
      return normalizeGitlab(json);
    case 'bitbucket':
      // Bitbucket Cloud nests changes under `push`; the POST service lists commits at the top.
      if ('push' in json) return normalizeBitbucketCloud(json);
      if ('canon_url' in json || 'commits' in json) return normalizeBitbucketPostService(json);
      throw DomainError.invalid('payload', 'not a Bitbucket push: neither push.changes nor commits');
  }
}
