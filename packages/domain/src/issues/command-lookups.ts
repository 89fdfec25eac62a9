import type { Actor } from '../auth/actor.js';
import { DomainError } from '../errors.js';
import {
  DEFAULT_RESOURCE_LIMITS,
  MAX_NEW_TAGS_PER_COMMAND,
  type ResourceLimits,
} from '../folders/resource-limits.js';
import { requireTagRoom } from '../folders/tags.js';
import { tables } from '../model/database.js';
import type { Em } from '../orm/em.js';
import { toBool } from '../orm/row-values.js';
import { type Param, prepareRead } from '../orm/typed-query.js';
import { nameKey } from '../text/user-text.js';
import { findReadableIssue, type IssueRef } from './find-issues.js';
import { visibilityGroupId } from './issue-visibility.js';
import { findVisibleTag, insertOwnTag, starTagOf, type VisibleTag } from './tags/tag-lookup.js';
import { tracksTime } from './work-items/work-items.js';

export type LinkTypeRef = {
  id: number;
  name: string;
  outwardName: string;
  inwardName: string;
  directed: boolean;
};

const userIdQuery = prepareRead((param: Param<{ loginKey: string }>) =>
  tables.selectFrom('users').select('id').where('login_key', '=', param('loginKey')),
);
const linkTypesQuery = prepareRead(() =>
  tables
    .selectFrom('issue_link_types')
    .select(['id', 'name', 'name_key', 'outward_name', 'inward_name', 'directed']),
);

/** Per-command caches for what ops refer to by name: users, tags, link types, target issues. */
export class CommandLookups {
  private readonly users = new Map<string, number | null>();
  private readonly tags = new Map<string, VisibleTag | null>();
  private readonly issues = new Map<string, IssueRef | Error>();
  private linkTypes: Map<string, LinkTypeRef> | undefined;
  private newTags = 0;

  constructor(
    private readonly em: Em,
    private readonly actor: Actor,
    private readonly limits: ResourceLimits = DEFAULT_RESOURCE_LIMITS,
  ) {}

  /** A user id by login (`me` is the actor); null when unknown. */
  async userId(login: string): Promise<number | null> {
    const key = nameKey(login);
    if (key === 'me' || key === this.actor.login.toLowerCase()) return this.actor.userId;
    if (!this.users.has(key)) {
      const row = await userIdQuery.first(this.em, { loginKey: key });
      this.users.set(key, row ? Number(row.id) : null);
    }
    return this.users.get(key) ?? null;
  }

  async tag(name: string): Promise<VisibleTag | null> {
    const key = nameKey(name);
    if (!this.tags.has(key)) this.tags.set(key, await findVisibleTag(this.em, this.actor, name));
    return this.tags.get(key) ?? null;
  }

  /**
   * The visible tag of that name, or a new tag of the actor's: at most a few per command
   * (400), and within the actor's tag cap (409).
   */
  async tagOrCreate(name: string): Promise<VisibleTag> {
    const found = await this.tag(name);
    if (found) return found;
    if (++this.newTags > MAX_NEW_TAGS_PER_COMMAND)
      throw DomainError.invalid('command', `creates at most ${MAX_NEW_TAGS_PER_COMMAND} new tags at once`);
    await requireTagRoom(this.em, this.actor.userId, this.limits);
    const created = await insertOwnTag(this.em, this.actor, name);
    this.tags.set(nameKey(name), created);
    return created;
  }

  /** Tags this command created (0: the actor's visible tags are as they were). */
  get createdTags(): number {
    return this.newTags;
  }

  async linkType(name: string): Promise<LinkTypeRef | null> {
    if (!this.linkTypes) {
      const rows = await linkTypesQuery.all(this.em, {});
      this.linkTypes = new Map(
        rows.map((r) => [
          r.name_key,
          {
            id: Number(r.id),
            name: r.name,
            outwardName: r.outward_name,
            inwardName: r.inward_name,
            directed: toBool(r.directed),
          },
        ]),
      );
    }
    const key = nameKey(name);
    return (
      this.linkTypes.get(key) ??
      [...this.linkTypes.values()].find(
        (t) => t.outwardName.toLowerCase() === key || t.inwardName.toLowerCase() === key,
      ) ??
      null
    );
  }

  private readonly tracking = new Map<number, boolean>();

  /** Whether the project tracks time (`work`), read once per command. */
  async timeTracking(projectId: number): Promise<boolean> {
    let tracked = this.tracking.get(projectId);
    if (tracked === undefined) {
      tracked = await tracksTime(this.em, projectId);
      this.tracking.set(projectId, tracked);
    }
    return tracked;
  }

  private readonly starTags = new Map<number, VisibleTag | null>();

  /** A user's own `Star` tag, created when `create` and missing (see `starTagOf`). */
  async starTag(userId: number, create: boolean): Promise<VisibleTag | null> {
    let tag = this.starTags.get(userId);
    if (tag === undefined || (tag === null && create)) {
      tag = await starTagOf(this.em, userId, create);
      this.starTags.set(userId, tag);
    }
    return tag;
  }

  /** A group's id by name (as the issue route resolves `permittedGroup`); null when there is none. */
  group(name: string): Promise<number | null> {
    return visibilityGroupId(this.em, name);
  }

  /** A link target the actor can read; throws NOT_FOUND otherwise (cached either way). */
  async targetIssue(readableId: string): Promise<IssueRef> {
    const key = readableId.trim().toUpperCase();
    let found = this.issues.get(key);
    if (!found) {
      try {
        found = await findReadableIssue(this.em, this.actor, readableId);
      } catch (error) {
        found = error instanceof Error ? error : new Error(String(error));
      }
      this.issues.set(key, found);
    }
    if (found instanceof Error) throw found;
    return found;
  }
}
