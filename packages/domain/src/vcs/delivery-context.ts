import type { PermissionKey, UserType } from '@trackline/contracts';
import type { Actor } from '../auth/actor.js';
import { findUser } from '../auth/actor-read-model.js';
import { loadActor } from '../auth/load-actor.js';
import type { CommandVocabulary } from '../commands/vocabulary.js';
import { executionVocabulary } from '../issues/execute-command.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { type Param, prepareRead } from '../orm/typed-query.js';
import { type Committer, findCommitter } from './committers.js';
import { findIssuesByKey, issueKey, type ReferencedIssue } from './issue-lookup.js';
import { authorIsPusher, type PushCommit, type PushEvent } from './push-event.js';

export const NOT_THE_PUSHER =
  'the commit author is not the pusher named by the host (requirePusherMatch): commands not applied';

/** What processing a delivery needs of its integration. */
export type DeliveryIntegration = {
  id: number;
  serviceUserId: number;
  committersRoleId: number | null;
  requirePusherMatch: boolean;
};

/** What the service account may do: read and comment the linked projects' issues, nothing else. */
const SERVICE_PERMISSIONS: ReadonlySet<PermissionKey> = new Set(['READ_ISSUE', 'CREATE_COMMENT']);

// A linked project in the trash takes no commits: its issues answer as missing.
const linkedLiveProjects = prepareRead((param: Param<{ integrationId: number }>) =>
  tables
    .selectFrom('vcs_integration_projects as l')
    .innerJoin('projects as p', 'p.id', 'l.project_id')
    .select('l.project_id')
    .where('l.integration_id', '=', param('integrationId'))
    .where('p.deleted_at', 'is', null),
);
const roleById = prepareRead((param: Param<{ id: number }>) =>
  tables.selectFrom('roles').select(['id', 'name']).where('id', '=', param('id')),
);

/** What the deliveries of one claim share: lookups that do not depend on the push. */
type Caches = {
  committers: Map<string, Committer>;
  actors: Map<number, Actor>;
  vocabularies: Map<string, CommandVocabulary>;
  issues: Map<string, ReferencedIssue | null>;
};

/**
 * One delivery's processing state: the integration's settings and caches that make a large
 * push cheap (the committer per e-mail and project, actors, command vocabularies). The
 * caches live only as long as one claim (the deliveries the worker took at once, see
 * `forDelivery`), so settings changed meanwhile apply to the next.
 */
export class DeliveryContext {
  private readonly committers: Map<string, Committer>;
  private readonly actors: Map<number, Actor>;
  private readonly vocabularies: Map<string, CommandVocabulary>;
  private readonly issues: Map<string, ReferencedIssue | null>;

  private constructor(
    readonly deliveryId: number,
    readonly integrationId: number,
    readonly projectIds: ReadonlySet<number>,
    readonly serviceActor: Actor,
    private readonly role: { id: number; name: string } | null,
    private readonly pusher: readonly string[] | null,
    private readonly requirePusherMatch: boolean,
    caches?: Caches,
  ) {
    this.committers = caches?.committers ?? new Map();
    this.actors = caches?.actors ?? new Map();
    this.vocabularies = caches?.vocabularies ?? new Map();
    this.issues = caches?.issues ?? new Map();
  }

  /**
   * Another delivery of the same integration, claimed with this one: its own id and pusher,
   * the same settings and caches (committers, actors, vocabularies, issues).
   */
  forDelivery(deliveryId: number, push: Pick<PushEvent, 'pusher'>): DeliveryContext {
    const { committers, actors, vocabularies, issues } = this;
    return new DeliveryContext(
      deliveryId,
      this.integrationId,
      this.projectIds,
      this.serviceActor,
      this.role,
      this.requirePusherMatch ? (push.pusher ?? []) : null,
      this.requirePusherMatch,
      { committers, actors, vocabularies, issues },
    );
  }

  /** `push.pusher` counts only when the integration requires the author to be the pusher. */
  static async load(
    em: Em,
    deliveryId: number,
    integration: DeliveryIntegration,
    push: Pick<PushEvent, 'pusher'>,
  ): Promise<DeliveryContext> {
    const links = await linkedLiveProjects.all(em, { integrationId: integration.id });
    const projectIds = new Set(links.map((l) => Number(l.project_id)));
    const service = await findUser(em, integration.serviceUserId);
    if (!service)
      throw new Error(`the service user ${integration.serviceUserId} of a VCS integration is missing`);
    const role =
      integration.committersRoleId === null
        ? undefined
        : await roleById.first(em, { id: integration.committersRoleId });
    const serviceActor: Actor = {
      userId: Number(service.id),
      login: service.login,
      type: service.type,
      global: new Set(),
      byProject: new Map([...projectIds].map((id) => [id, SERVICE_PERMISSIONS])),
    };
    return new DeliveryContext(
      deliveryId,
      integration.id,
      projectIds,
      serviceActor,
      role ? { id: Number(role.id), name: role.name } : null,
      integration.requirePusherMatch ? (push.pusher ?? []) : null,
      integration.requirePusherMatch,
    );
  }

  /**
   * The user the commit's author e-mail stands for. With `requirePusherMatch`, nobody when
   * the host does not name the author as the pusher: anyone may write any e-mail into a
   * commit, so the e-mail alone must not let a pusher act (or comment) as someone else.
   */
  async committerOf(em: Em, commit: PushCommit, projectId: number): Promise<Committer> {
    if (this.pusher && !authorIsPusher(commit, this.pusher)) {
      return { kind: 'unmatched', reason: NOT_THE_PUSHER };
    }
    return this.committer(em, commit.authorEmail, projectId);
  }

  /** Looks up every issue the push references at once (a push may reference hundreds). */
  async preloadIssues(em: Em, readableIds: readonly string[]): Promise<void> {
    const found = await findIssuesByKey(em, readableIds);
    for (const id of readableIds) {
      const key = issueKey(id);
      if (key) this.issues.set(key, found.get(key) ?? null);
    }
  }

  async issue(em: Em, readableId: string): Promise<ReferencedIssue | undefined> {
    const key = issueKey(readableId);
    if (!key) return undefined;
    if (!this.issues.has(key)) await this.preloadIssues(em, [readableId]);
    return this.issues.get(key) ?? undefined;
  }

  async committer(em: Em, email: string | null, projectId: number): Promise<Committer> {
    const key = `${email?.toLowerCase() ?? ''}|${projectId}`;
    let committer = this.committers.get(key);
    if (!committer) {
      committer = await findCommitter(em, this.role, email, projectId);
      this.committers.set(key, committer);
    }
    return committer;
  }

  async actor(em: Em, user: { id: number; login: string; type: string }): Promise<Actor> {
    let actor = this.actors.get(user.id);
    if (!actor) {
      actor = await loadActor(em, { id: user.id, login: user.login, type: user.type as UserType });
      this.actors.set(user.id, actor);
    }
    return actor;
  }

  /** Vocabularies differ per actor (own tags) and project (fields): cached on both. */
  async vocabulary(em: Em, actor: Actor, issue: ReferencedIssue): Promise<CommandVocabulary> {
    const key = `${actor.userId}|${issue.projectId}`;
    let vocabulary = this.vocabularies.get(key);
    if (!vocabulary) {
      vocabulary = await executionVocabulary(em, actor, [issue.readableId]);
      this.vocabularies.set(key, vocabulary);
    }
    return vocabulary;
  }

  /** After a command that may have created a tag, the actor's vocabularies are stale. */
  forgetVocabularies(userId: number): void {
    for (const key of this.vocabularies.keys())
      if (key.startsWith(`${userId}|`)) this.vocabularies.delete(key);
  }
}
